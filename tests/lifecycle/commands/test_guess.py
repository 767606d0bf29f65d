"""commands/guess.py / evidence.py fast paths: a cheap substring check skips a regex only where the regex
cannot match (property tests over generated shell text, rich in the words and symbols the regexes read)."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from explainer.lifecycle.commands import guess as C
from explainer.lifecycle.commands.evidence import _XMX
from tests.profiles import examples

_PIECES = ["sleep", " ", "5", "10s", "infinity", "while", "true", ";", "do", "done", "until", "!", "for", "((;;))",
           "tail", "-f", "break", "return", "exit", "echo", "&", "&&", "|", "{", "}", "`", "$((", "$(", "1))", "\n",
           "#", "X=1", "=", "-Xmx2g", "-XX:MaxHeapSize=1g", "-X", "java", "trap", "'", '"', "sh", "-c", "a"]
_SCRIPTS = st.lists(st.sampled_from(_PIECES), max_size=30).map("".join) | st.text(max_size=40)
SETTINGS = settings(max_examples=examples(400), deadline=None)


@SETTINGS
@given(_SCRIPTS)
def test_no_grouping_without_its_characters(script: str) -> None:
    if not C._may_group(script):
        assert C._GROUPING.search(script) is None


@SETTINGS
@given(_SCRIPTS)
def test_no_way_out_of_a_loop_without_break_return_or_exit(script: str) -> None:
    if not C._may_leave(script):
        assert not any(C._LEFT_LOOP.match(script, i) for i in range(len(script) + 1))


@SETTINGS
@given(_SCRIPTS)
def test_no_sleep_heap_or_assignment_match_without_its_literal(script: str) -> None:
    if "sleep" not in script:
        assert C._SLEEP.findall(script) == []
    if "-X" not in script:
        assert _XMX.search(script) is None
    for word in script.split():
        if "=" not in word:
            assert C._ASSIGNMENT.match(word) is None


@SETTINGS
@given(_SCRIPTS)
def test_finite_run_reads_a_script_without_comments_as_its_lines(script: str) -> None:
    """Without a "#" the comment filter keeps every line: the script is its lines joined again."""
    if "#" not in script:
        kept = "\n".join(ln for ln in script.splitlines() if not ln.strip().startswith("#"))
        assert kept == "\n".join(script.splitlines())

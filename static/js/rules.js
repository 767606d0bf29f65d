/* The rules page's filter as the reader types (the form also works without JavaScript: the server hides
   what does not match).  Same rule as web/views.py `rules`: every word in the rule's text, and the
   severity chosen; the address follows, so a filtered list can be shared. */
(function () {
  "use strict";
  const form = document.getElementById("rules-filter");
  if (!form) return;
  const query = form.elements.namedItem("q");
  const severity = form.elements.namedItem("severity");
  const count = document.getElementById("rules-count");
  const rules = Array.from(document.querySelectorAll("article.rule[data-severity]"));
  const texts = rules.map((r) => r.textContent.toLowerCase());
  const entries = new Map(Array.from(document.querySelectorAll(".rules-index li[data-rule]")).map((li) => [li.dataset.rule, li]));

  function apply() {
    const words = query.value.toLowerCase().split(/\s+/).filter(Boolean);
    const level = severity.value;
    let shown = 0;
    rules.forEach((rule, i) => {
      const show = (!level || rule.dataset.severity === level) && words.every((w) => texts[i].includes(w));
      rule.hidden = !show;
      const entry = entries.get(rule.id);
      if (entry) entry.hidden = !show;
      if (show) shown += 1;
    });
    count.textContent = count.dataset.template.replace("%(n)s", String(shown));
    const url = new URL(window.location.href);
    if (query.value.trim()) url.searchParams.set("q", query.value.trim()); else url.searchParams.delete("q");
    if (level) url.searchParams.set("severity", level); else url.searchParams.delete("severity");
    window.history.replaceState(null, "", url);
  }

  form.addEventListener("input", apply);
  form.addEventListener("change", apply);
  form.addEventListener("submit", (event) => { event.preventDefault(); apply(); });
})();

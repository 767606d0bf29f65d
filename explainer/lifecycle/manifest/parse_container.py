"""One container of a Pod spec read into the model: its probes, hooks, ports, env and mounts, and the
Pod's volumes; ``ContainerReader``'s typed getters collect every shape error with its path.

``parse.py`` builds the Pod on this reader (its ``_Builder`` adds the Pod-level fields).
"""
from __future__ import annotations

from typing import Any, overload

from .. import defaults as d
from ..errors import ErrorRecord
from ..i18n import Text, gettext_noop as _
from ..model import Container, EnvVar, Hook, Mount, Port, Probe, RestartRule, SourceRef, Volume
from .yamlload import Limits, format_path, position

_PROBE_HANDLERS = ("exec", "httpGet", "tcpSocket", "grpc")
_HOOK_HANDLERS = ("exec", "httpGet", "tcpSocket", "sleep")


def _kind_of(value: Any) -> Text:
    """What a reader calls the value's type: 'a mapping', 'a list', 'a number', ..."""
    if isinstance(value, dict):
        return Text(_A_MAPPING)
    if isinstance(value, list):
        return Text(_A_LIST)
    if isinstance(value, str):
        return Text(_A_TEXT)
    if isinstance(value, bool):
        return Text(_("true/false"))
    if isinstance(value, (int, float)):
        return Text(_("a number"))
    if value is None:
        return Text(_("empty"))
    return Text(_("a value of another kind"))


# What a field must hold (``ContainerReader.value``'s ``what``), message ids used more than once.
_A_MAPPING = _("a mapping")
_A_LIST = _("a list")
_A_TEXT = _("a text")
_TRUE_OR_FALSE = _("true or false")


def _err(root: Any, path: tuple[Any, ...], message: Text, document: int, pod: str,
         kind: str = "structure", reason: str | None = None) -> ErrorRecord:
    line, col = position(root, path)
    return ErrorRecord(message, line, col, format_path(path), kind, reason, document, pod)


class ContainerReader:
    """Reads the containers and volumes of one Pod spec into the model, collecting every shape error with its
    path."""

    def __init__(self, root: Any, document: int, name: str, errors: list[ErrorRecord],
                 limits: Limits) -> None:
        self.root, self.document, self.name, self.errors = root, document, name, errors
        self.limits = limits

    def error(self, path: tuple[Any, ...], message: Text, reason: str | None = None) -> None:
        self.errors.append(_err(self.root, path, message, self.document, self.name,
                                reason=reason))

    # typed getters: a wrong type is an error and the default is used
    def value(self, m: dict, path: tuple[Any, ...], key: str, types: tuple[type, ...],
              what: str, default: Any = None) -> Any:
        """``m[key]`` when it has one of ``types``; ``what`` (a message id) names them for the error."""
        v = m.get(key, default) if isinstance(m, dict) else default
        if v is default or v is None:
            return default
        if not isinstance(v, types) or (bool not in types and isinstance(v, bool)):
            self.error(path + (key,), Text(_("{key} must be {what}, not {kind} ({value})."),
                                           {"key": key, "what": Text(what), "kind": _kind_of(v),
                                            "value": f"{v!r:.40}"}))
            return default
        return v

    @overload
    def integer(self, m: dict, path: tuple[Any, ...], key: str, default: int,
                minimum: int = 0, maximum: int | None = None) -> int: ...

    @overload
    def integer(self, m: dict, path: tuple[Any, ...], key: str, default: None,
                minimum: int = 0, maximum: int | None = None) -> int | None: ...

    def integer(self, m: dict, path: tuple[Any, ...], key: str, default: int | None,
                minimum: int = 0, maximum: int | None = None) -> int | None:
        """The whole number at ``key`` (its default when absent or out of range, with an error)."""
        v = self.value(m, path, key, (int,), _("a whole number"), default)
        if v is None or v is default:
            return v
        if v < minimum or (maximum is not None and v > maximum):
            if maximum is not None:
                text = Text(_("{key} is {value}; it must be from {minimum} to {maximum}."),
                            {"key": key, "value": v, "minimum": minimum, "maximum": maximum})
            else:
                text = Text(_("{key} is {value}; it must be at least {minimum}."),
                            {"key": key, "value": v, "minimum": minimum})
            self.error(path + (key,), text, "Invalid value")
            return default
        return v

    def text(self, m: dict, path: tuple[Any, ...], key: str, default: str | None = None) -> str | None:
        v = m.get(key) if isinstance(m, dict) else None
        if isinstance(v, (int, float)) and not isinstance(v, bool) and key in ("image", "value"):
            return str(v)
        return self.value(m, path, key, (str,), _A_TEXT, default)

    def mapping(self, m: dict, path: tuple[Any, ...], key: str) -> dict:
        return self.value(m, path, key, (dict,), _A_MAPPING, None) or {}

    def items(self, m: dict, path: tuple[Any, ...], key: str) -> list[tuple[tuple[Any, ...], dict]]:
        v = self.value(m, path, key, (list,), _A_LIST, None) or []
        out = []
        for i, item in enumerate(v):
            if isinstance(item, dict):
                out.append((path + (key, i), item))
            else:
                self.error(path + (key, i), Text(_("Each entry of {key} must be a mapping, not {kind}."),
                                                 {"key": key, "kind": _kind_of(item)}))
        return out

    def strings(self, m: dict, path: tuple[Any, ...], key: str) -> tuple[str, ...]:
        v = self.value(m, path, key, (list,), _("a list of texts"), None) or []
        out = []
        for i, item in enumerate(v):
            if isinstance(item, str):
                out.append(item)
            else:
                self.error(path + (key, i), Text(_("Each entry of {key} must be a text; quote it ({value} is {kind})."),
                                                 {"key": key, "value": f"{item!r:.40}", "kind": _kind_of(item)}))
        return tuple(out)

    def containers(self, spec: dict, p: tuple[Any, ...], key: str, role: str) -> tuple[Container, ...]:
        out = []
        for i, (cp, c) in enumerate(self.items(spec, p, key)):
            built = self.container(c, cp, role, i)
            if built:
                out.append(built)
        return tuple(out)

    def container(self, c: dict, cp: tuple[Any, ...], role: str, index: int) -> Container | None:
        name = self.text(c, cp, "name")
        if not name:
            self.error(cp + ("name",) if "name" in c else cp, Text(_("Every container needs a name.")),
                       "Required value")
            return None
        policy = written_policy = self.text(c, cp, "restartPolicy")
        if policy is not None and policy not in d.POD_RESTART_POLICIES:
            self.error(cp + ("restartPolicy",), Text(_("restartPolicy {value} is not a restart policy (an init "
                                                       "container takes only Always: a native sidecar)."),
                                                     {"value": repr(policy)}), "Unsupported value")
            policy = None
        if role == "init" and policy == "Always":
            role = "sidecar"
        sc = self.mapping(c, cp, "securityContext")
        resources = self.mapping(c, cp, "resources")
        requests = self.mapping(resources, cp + ("resources",), "requests")
        limits = self.mapping(resources, cp + ("resources",), "limits")
        return Container(
            name=name, role=role, index=index,
            image=self.text(c, cp, "image") or "",
            path=format_path(cp), line=position(self.root, cp)[0],
            command=self.strings(c, cp, "command"), args=self.strings(c, cp, "args"),
            restart_policy=policy,
            startup_probe=self.probe(c, cp, "startupProbe"),
            readiness_probe=self.probe(c, cp, "readinessProbe"),
            liveness_probe=self.probe(c, cp, "livenessProbe"),
            post_start=self.hook(c, cp, "postStart"), pre_stop=self.hook(c, cp, "preStop"),
            ports=self.ports(c, cp), mounts=self.mounts(c, cp),
            env=self.env(c, cp), env_refs=self.env_refs(c, cp),
            has_requests=bool(requests), has_limits=bool(limits),
            requests=_scalars(requests), limits=_scalars(limits),
            privileged=bool(self.value(sc, cp + ("securityContext",), "privileged", (bool,),
                                       _TRUE_OR_FALSE, False)),
            target=self.text(c, cp, "targetContainerName"),
            restart_rules=self.restart_rules(c, cp),
            stop_signal=self.text(self.mapping(c, cp, "lifecycle"), cp + ("lifecycle",), "stopSignal"),
            resize_restart=tuple(str(m.get("resourceName")) for _rp, m in self.items(c, cp, "resizePolicy")
                                 if m.get("restartPolicy") == "RestartContainer"),
            policy_written=written_policy,
        )

    def restart_rules(self, c: dict, cp: tuple[Any, ...]) -> tuple[RestartRule, ...]:
        """``restartPolicyRules``: shapes here; counts, actions and operators are checked by validate.py."""
        out = []
        for i, (rp, m) in enumerate(self.items(c, cp, "restartPolicyRules")):
            codes = self.mapping(m, rp, "exitCodes")
            values = []
            for j, v in enumerate(self.value(codes, rp + ("exitCodes",), "values", (list,), _A_LIST, None) or []):
                if isinstance(v, int) and not isinstance(v, bool):
                    values.append(v)
                else:
                    self.error(rp + ("exitCodes", "values", j), Text(_("An exit code must be a whole number, not "
                                                                        "{value}."), {"value": f"{v!r:.40}"}))
            out.append(RestartRule(action=self.text(m, rp, "action") or "",
                                   operator=self.text(codes, rp + ("exitCodes",), "operator") if codes else None,
                                   values=tuple(values), index=i, line=position(self.root, rp)[0]))
        return tuple(out)

    def probe(self, c: dict, cp: tuple[Any, ...], key: str) -> Probe | None:
        if c.get(key) is None:
            return None
        pp = cp + (key,)
        m = self.mapping(c, cp, key)
        handlers = [h for h in _PROBE_HANDLERS if m.get(h) is not None]
        handler = handlers[0] if len(handlers) == 1 else ("none" if not handlers else "multiple")
        return Probe(
            kind=key.removesuffix("Probe"), handler=handler, detail=_handler_detail(m, handler),
            initial_delay=self.integer(m, pp, "initialDelaySeconds", d.PROBE_INITIAL_DELAY_SECONDS) or 0,
            period=self.integer(m, pp, "periodSeconds", d.PROBE_PERIOD_SECONDS, 1) or d.PROBE_PERIOD_SECONDS,
            timeout=self.integer(m, pp, "timeoutSeconds", d.PROBE_TIMEOUT_SECONDS, 1) or 1,
            success_threshold=self.integer(m, pp, "successThreshold", d.PROBE_SUCCESS_THRESHOLD, 1) or 1,
            failure_threshold=self.integer(m, pp, "failureThreshold", d.PROBE_FAILURE_THRESHOLD, 1) or 3,
            termination_grace_period=self.integer(m, pp, "terminationGracePeriodSeconds", None, 1),
            line=position(self.root, pp)[0], timeout_written=m.get("timeoutSeconds") is not None,
            written=tuple((h, m[h]) for h in _PROBE_HANDLERS if h in m), **_probe_target(m, handler),
        )

    def hook(self, c: dict, cp: tuple[Any, ...], key: str) -> Hook | None:
        lc = self.mapping(c, cp, "lifecycle")
        if lc.get(key) is None:
            return None
        hp = cp + ("lifecycle", key)
        m = self.mapping(lc, cp + ("lifecycle",), key)
        handlers = [h for h in _HOOK_HANDLERS if m.get(h) is not None]
        handler = handlers[0] if len(handlers) == 1 else ("none" if not handlers else "multiple")
        command: tuple[str, ...] = ()
        sleep = None
        if handler == "exec":
            command = self.strings(self.mapping(m, hp, "exec"), hp + ("exec",), "command")
        elif handler == "sleep":
            sleep = self.integer(self.mapping(m, hp, "sleep"), hp + ("sleep",), "seconds", None)
            if sleep is None:
                self.error(hp + ("sleep", "seconds"), Text(_("A sleep hook needs seconds.")), "Required value")
        return Hook(kind=key, handler=handler, detail=_handler_detail(m, handler), command=command,
                    sleep_seconds=sleep, line=position(self.root, hp)[0], written=tuple(m.items()))

    def ports(self, c: dict, cp: tuple[Any, ...]) -> tuple[Port, ...]:
        out = []
        for pp, m in self.items(c, cp, "ports"):
            port = self.integer(m, pp, "containerPort", None, 1, 65535)
            if port is None:
                if "containerPort" not in m:
                    self.error(pp, Text(_("A port needs containerPort (1-65535).")), "Required value")
                continue
            proto = self.text(m, pp, "protocol", "TCP")
            if proto not in d.PROTOCOLS:
                self.error(pp + ("protocol",), Text(_("protocol {value} is not TCP, UDP or SCTP."),
                                                    {"value": repr(proto)}), "Unsupported value")
            out.append(Port(port, proto or "TCP", self.text(m, pp, "name"),
                            self.integer(m, pp, "hostPort", None, 1, 65535), position(self.root, pp)[0]))
        return tuple(out)

    def mounts(self, c: dict, cp: tuple[Any, ...]) -> tuple[Mount, ...]:
        out = []
        for mp, m in self.items(c, cp, "volumeMounts"):
            name, path = self.text(m, mp, "name"), self.text(m, mp, "mountPath")
            if not name or not path:
                self.error(mp, Text(_("A volumeMount needs name and mountPath.")), "Required value")
                continue
            out.append(Mount(name, path, bool(self.value(m, mp, "readOnly", (bool,), _TRUE_OR_FALSE, False)),
                             self.text(m, mp, "subPath") or self.text(m, mp, "subPathExpr"),
                             position(self.root, mp)[0]))
        return tuple(out)

    def env(self, c: dict, cp: tuple[Any, ...]) -> tuple[EnvVar, ...]:
        out = []
        for ep, m in self.items(c, cp, "env"):
            name = self.text(m, ep, "name")
            if name:
                out.append(EnvVar(name, self.text(m, ep, "value"), position(self.root, ep)[0]))
        return tuple(out)

    def env_refs(self, c: dict, cp: tuple[Any, ...]) -> tuple[SourceRef, ...]:
        out = []
        for ep, m in self.items(c, cp, "env"):
            vf = self.mapping(m, ep, "valueFrom")
            for key, kind in (("secretKeyRef", "secret"), ("configMapKeyRef", "configMap")):
                ref = vf.get(key)
                if isinstance(ref, dict) and isinstance(ref.get("name"), str):
                    out.append(SourceRef(kind, ref["name"], "env", position(self.root, ep)[0]))
        for ep, m in self.items(c, cp, "envFrom"):
            for key, kind in (("secretRef", "secret"), ("configMapRef", "configMap")):
                ref = m.get(key)
                if isinstance(ref, dict) and isinstance(ref.get("name"), str):
                    out.append(SourceRef(kind, ref["name"], "envFrom", position(self.root, ep)[0]))
        return tuple(out)

    def claim_templates(self, obj: dict, at: tuple[Any, ...], kind: str) -> tuple[Volume, ...]:
        """A StatefulSet's volumeClaimTemplates become volumes of each of its Pods."""
        if kind != "StatefulSet" or not isinstance(obj.get("spec"), dict):
            return ()
        out = []
        for vp, m in self.items(obj["spec"], at + ("spec",), "volumeClaimTemplates"):
            name = _claim_name(m)
            if name:
                out.append(Volume(name, "persistentVolumeClaim", (("claim", f"{name}-<pod name>"),),
                                  position(self.root, vp)[0]))
        return tuple(out)

    def volumes(self, spec: dict, p: tuple[Any, ...]) -> tuple[Volume, ...]:
        out = []
        for vp, m in self.items(spec, p, "volumes"):
            name = self.text(m, vp, "name")
            if not name:
                self.error(vp, Text(_("Every volume needs a name.")), "Required value")
                continue
            types = [k for k in m if k != "name"]
            vtype = types[0] if types else "emptyDir"
            body = m.get("emptyDir")
            body = body if isinstance(body, dict) else {}
            size = body.get("sizeLimit")
            out.append(Volume(name, vtype, _volume_sources(m, vtype), position(self.root, vp)[0], vp[-1],
                              str(body.get("medium") or ""), size if isinstance(size, (str, int, float)) else None))
        return tuple(out)


def _scalars(m: dict) -> tuple[tuple[str, Any], ...]:
    """(name, value) of a resources.requests/limits mapping; other shapes are the schema's to report."""
    return tuple((str(k), v) for k, v in m.items() if isinstance(v, (str, int, float)))


def _claim_name(item: dict) -> str | None:
    meta = item.get("metadata")
    return meta.get("name") if isinstance(meta, dict) and isinstance(meta.get("name"), str) else None


def _volume_sources(m: dict, vtype: str) -> tuple[tuple[str, str], ...]:
    body = m.get(vtype)
    if not isinstance(body, dict):
        return ()
    if vtype == "secret" and isinstance(body.get("secretName"), str):
        return (("secret", body["secretName"]),)
    if vtype == "configMap" and isinstance(body.get("name"), str):
        return (("configMap", body["name"]),)
    if vtype == "persistentVolumeClaim" and isinstance(body.get("claimName"), str):
        return (("claim", body["claimName"]),)
    if vtype == "hostPath" and isinstance(body.get("path"), str):
        return (("path", body["path"]),)
    if vtype == "projected" and isinstance(body.get("sources"), list):
        # every source a projected volume gathers (docs/lifecycle-model.md §32.4): Secrets and ConfigMaps by
        # name, the downward API's fields, a service account token (its audience), a cluster trust bundle
        found = []
        for s in body["sources"]:
            if not isinstance(s, dict):
                continue
            for key, kind in (("secret", "secret"), ("configMap", "configMap")):
                if isinstance(s.get(key), dict) and isinstance(s[key].get("name"), str):
                    found.append((kind, s[key]["name"]))
            api = s.get("downwardAPI")
            if isinstance(api, dict):
                paths = [str(i.get("path")) for i in api.get("items") or [] if isinstance(i, dict) and i.get("path")]
                found.append(("downwardAPI", ",".join(paths) or "-"))
            token = s.get("serviceAccountToken")
            if isinstance(token, dict):
                found.append(("token", str(token.get("audience") or token.get("path") or "token")))
            bundle = s.get("clusterTrustBundle")
            if isinstance(bundle, dict):
                found.append(("bundle", str(bundle.get("name") or bundle.get("signerName") or "-")))
        return tuple(found)
    return ()


def _probe_target(m: dict, handler: str) -> dict[str, Any]:
    """The port (a number or a name), host and scheme a network probe connects to; an exec probe's command."""
    body = m.get(handler)
    if handler == "exec" and isinstance(body, dict) and isinstance(body.get("command"), list):
        return {"command": tuple(str(x) for x in body["command"] if isinstance(x, (str, int, float)))}
    if handler not in ("httpGet", "tcpSocket", "grpc") or not isinstance(body, dict):
        return {}
    port = body.get("port")
    out: dict[str, Any] = {"port": port if isinstance(port, (int, str)) and not isinstance(port, bool) else None}
    if handler == "httpGet":
        out["host"] = body["host"] if isinstance(body.get("host"), str) and body["host"] else None
        out["path"] = body["path"] if isinstance(body.get("path"), str) else None
        out["scheme"] = body["scheme"] if isinstance(body.get("scheme"), str) else "HTTP"
    elif handler == "tcpSocket":
        out["host"] = body["host"] if isinstance(body.get("host"), str) and body["host"] else None
    return out


def _handler_detail(m: dict, handler: str) -> str:
    body = m.get(handler)
    if handler == "exec" and isinstance(body, dict):
        cmd = body.get("command")
        return "exec " + " ".join(str(x) for x in cmd) if isinstance(cmd, list) else "exec"
    if handler == "httpGet" and isinstance(body, dict):
        return f"GET {body.get('path', '/')} on port {body.get('port', '?')}"
    if handler == "tcpSocket" and isinstance(body, dict):
        return f"TCP connect to port {body.get('port', '?')}"
    if handler == "grpc" and isinstance(body, dict):
        return f"gRPC health check on port {body.get('port', '?')}"
    if handler == "sleep" and isinstance(body, dict):
        return f"sleep {body.get('seconds', '?')}s"
    return handler
"""The plugin class's constructor: one keyword per security scheme, retries, strictness.

Each scheme the runtime can send becomes keyword arguments (API keys in a header, the query
or a cookie; bearer tokens; HTTP basic as a username and a password; OAuth2, whose keyword
takes a token or :class:`~sktypes.remote.ClientCredentials`; OpenID Connect tokens). The
schemes are written once, as the module's ``SECURITY_SCHEMES``, and each request sends what
its operation's ``security`` asks for (:class:`~sktypes.remote.SecurityCredentials`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sktypes.remote import Scheme
from sktypes.remote._security import scheme_of
from sktypes_codegen._annotations import Import, Raw
from sktypes_codegen._naming import Namespace, identifier, py_string
from sktypes_codegen._render import Param, call, collection

__all__ = ["INIT_NAMES", "Constructor", "constructor"]

INIT_NAMES = {
    "self",
    "base_url",
    "client",
    "sync_client",
    "timeout",
    "credentials",
    "retries",
    "strict",
    "security",
}
_OPTIONAL_STR = Raw("str | None")
_RUNTIME = "sktypes.remote"


@dataclass(slots=True)
class Constructor:
    """What the template writes for ``__init__``.

    Attributes:
        params: the constructor's parameters.
        values: ``"key": argument`` pairs of the credentials' values (code).
        schemes: ``SECURITY_SCHEMES`` as code (``{}``: the spec declares none it can send).
        needs: the imports they use.
    """

    params: list[Param]
    values: dict[str, str] = field(default_factory=dict)
    schemes: dict[str, str] = field(default_factory=dict)
    needs: set[Import] = field(default_factory=set)

    def schemes_code(self) -> str:
        """``SECURITY_SCHEMES = {...}`` laid out as ruff does."""
        head = "SECURITY_SCHEMES: dict[str, Scheme] = "
        return head + collection(self.schemes, 0, len(head))

    def security_code(self, indent: int) -> str:
        """The ``security=SecurityCredentials(...)`` argument of ``super().__init__``."""
        values = collection(self.values, indent + 4, len("values="), 1)
        args = ["SECURITY_SCHEMES", f"values={values}", "env={}", "required=False"]
        return "security=" + call("SecurityCredentials", args, indent, ",")[:-1]


def constructor(schemes: Mapping[str, Any]) -> Constructor:
    """The constructor for a spec's ``securitySchemes``."""
    params: list[Param] = [
        ("self", None, None),
        ("base_url", _OPTIONAL_STR, "None"),
        ("*", None, None),
    ]
    out = Constructor(params)
    args = Namespace(INIT_NAMES)
    for key in sorted(schemes):
        raw = schemes[key]
        scheme = scheme_of(str(key), raw) if isinstance(raw, Mapping) else None
        if scheme is None:
            continue
        name = py_string(key)
        if scheme.kind == "apiKey":
            arg = args.claim(key, identifier(f"{key}_api_key" if "key" not in key.lower() else key))
            params.append((arg, _OPTIONAL_STR, "None"))
            out.values[name] = arg
        elif scheme.kind == "basic":
            user = args.claim(key, identifier(f"{key}_username"))
            password = args.claim(f"{key}:password", identifier(f"{key}_password"))
            params += [(user, _OPTIONAL_STR, "None"), (password, _OPTIONAL_STR, "None")]
            out.values[py_string(f"{key}.username")] = user
            out.values[py_string(f"{key}.password")] = password
        else:
            arg = args.claim(key, identifier(f"{key}_token"))
            if scheme.kind == "oauth2" and scheme.token_url:
                params.append((arg, Raw("str | ClientCredentials | None"), "None"))
                out.needs.add(Import(_RUNTIME, "ClientCredentials"))
            else:
                params.append((arg, _OPTIONAL_STR, "None"))
            out.values[name] = arg
        out.schemes[name] = _scheme_code(scheme)
    if out.schemes:
        out.needs |= {Import(_RUNTIME, "Scheme"), Import(_RUNTIME, "SecurityCredentials")}
    out.needs.add(Import(_RUNTIME, "Retry"))
    params += [
        ("client", Raw("httpx.AsyncClient | None"), "None"),
        ("sync_client", Raw("httpx.Client | None"), "None"),
        ("timeout", Raw("float"), "30.0"),
        ("retries", Raw("int | Retry"), "2"),
        ("strict", Raw("bool"), "False"),
    ]
    return out


def _scheme_code(scheme: Scheme) -> str:
    """``Scheme("name", "kind", ...)``: the arguments that differ from the defaults."""
    args = [py_string(scheme.name), py_string(scheme.kind)]
    if scheme.kind == "apiKey":
        args += [py_string(scheme.location), py_string(scheme.parameter)]
    if scheme.token_url:
        args.append(f"token_url={py_string(scheme.token_url)}")
    return call("Scheme", args, 4, ",")[:-1]

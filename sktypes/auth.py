"""Credentials for an OpenAPI document's security schemes, sent only where an operation asks.

An operation's ``security`` lists alternatives (any one will do), each naming the schemes it
needs together. :class:`SecurityCredentials` turns the document's ``securitySchemes`` and the
values the user configured into :class:`~sktypes.remote.Credential` values for one operation:
the first alternative whose schemes are all configured wins; an operation that needs
credentials none of which are configured gets a :class:`CredentialsError` naming what to set,
and an operation without ``security`` gets nothing.

Supported schemes and where their values come from (``S`` is the scheme's name in the
document, ``P`` the plugin's; names are upper-cased, every other character than ``A-Z0-9``
becomes ``_``; ``SKTYPES_AUTH_P_S...`` is looked up before ``SKTYPES_AUTH_S...``):

- ``apiKey`` (in a header, the query or a cookie): ``SKTYPES_AUTH_S``, sent where the scheme
  says;
- ``http`` ``bearer``: ``SKTYPES_AUTH_S``, sent as ``Authorization: Bearer …``;
- ``http`` ``basic`` (Swagger 2.0 ``basic``): ``SKTYPES_AUTH_S_USERNAME`` and
  ``SKTYPES_AUTH_S_PASSWORD``, sent as ``Authorization: Basic …``;
- ``oauth2`` with a client-credentials flow (Swagger 2.0 ``application``):
  ``SKTYPES_AUTH_S_CLIENT_ID`` and ``SKTYPES_AUTH_S_CLIENT_SECRET`` (``…_TOKEN_URL``
  overrides the document's ``tokenUrl``), or a :class:`~sktypes.remote.ClientCredentials`
  value: a token is fetched (scopes: the operation's), kept until it expires, forgotten
  when the API answers 401 (the request is then sent once more with a new one), and sent
  as ``Bearer``;
- ``oauth2`` (any flow) and ``openIdConnect``: ``SKTYPES_AUTH_S``, a token you already
  have, sent as ``Bearer``.

The same keys can be passed as values (``{"S": …, "S.username": …}``), which win over the
environment. Other schemes (``mutualTLS``, ``http`` digest, …) are listed in
:attr:`SecurityCredentials.problems` with their JSON pointer. A value is checked like any
header value (a key ending in a carriage return, from a CRLF ``.env`` file, is refused by
scheme name), and never appears in a message, a ``repr`` or a log line: every value sent
is registered with
:func:`sktypes.remote.redact`, which errors, warnings, the MCP server's results and
httpx's log records (it logs request URLs at ``INFO``) go through.

The implementation lives in :mod:`sktypes.remote` (generated packages, ``kernel_openapi``
and ``sktypes serve`` share it); this module is its documented face.
"""

from __future__ import annotations

from sktypes.remote._oauth import ClientCredentials, CredentialsError
from sktypes.remote._security import (
    ENV_PREFIX,
    Scheme,
    SecurityCredentials,
    apply_credentials,
    env_name,
    parse_schemes,
)

__all__ = [
    "ENV_PREFIX",
    "ClientCredentials",
    "CredentialsError",
    "Scheme",
    "SecurityCredentials",
    "apply_credentials",
    "env_name",
    "parse_schemes",
]

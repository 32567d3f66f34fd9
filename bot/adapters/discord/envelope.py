"""What a signed body must be before anything reads it: an interaction, as Discord posts one.

Discord's signature says who sent a body, not that it is well formed: a body it signed is still
read as untrusted JSON. It is parsed and checked in one pass (pydantic's JSON parser, which
costs a press no more than json.loads and has a nesting limit where json.loads raised
RecursionError): an object with a snowflake id, a known type, the application's id and a
token, and every field the adapter reads (bot/adapters/discord/asked.py, interactions.py,
forms.py) of the type it reads. Anything else, invalid UTF-8, a number too long to read, a
list where an object belongs, is `None`: the endpoint answers 400 and nothing is handled.

Only the fields read are checked; the rest are kept as they came (Discord adds fields).
"""

from __future__ import annotations

from typing import Annotated, Any, NotRequired, cast

from pydantic import AfterValidator, ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError
from typing_extensions import TypedDict  # pydantic refuses typing's before Python 3.12

PING, COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5  # interaction types
ID_LIMIT = 1 << 63  # the stores keep an interaction's id as a signed 64-bit integer (Discord's until 2084)


def _stored_whole(snowflake: str) -> str:
    if int(snowflake) >= ID_LIMIT:
        raise ValueError("an id past 63 bits")
    return snowflake


Snowflake = Annotated[str, StringConstraints(pattern=r"^[0-9]{1,20}$")]  # as asked.py reads one
InteractionId = Annotated[Snowflake, AfterValidator(_stored_whole)]
_AS_SENT = ConfigDict(extra="allow", strict=True)  # the fields not named kept as they came; no coercion


class _Option(TypedDict):
    __pydantic_config__ = _AS_SENT  # type: ignore[misc]  # pydantic's way to configure a TypedDict
    name: str
    options: NotRequired[list[_Option]]  # a subcommand's own


class _Row(TypedDict):  # a submitted form's row: its inputs, or one input in a label
    __pydantic_config__ = _AS_SENT  # type: ignore[misc]
    components: NotRequired[list[dict[str, Any]]]
    component: NotRequired[dict[str, Any]]


class _Data(TypedDict):
    __pydantic_config__ = _AS_SENT  # type: ignore[misc]
    custom_id: NotRequired[str]
    name: NotRequired[str]
    options: NotRequired[list[_Option]]
    components: NotRequired[list[_Row]]
    resolved: NotRequired[dict[str, Any]]


class _User(TypedDict):
    __pydantic_config__ = _AS_SENT  # type: ignore[misc]
    id: Snowflake


class _Member(TypedDict):
    __pydantic_config__ = _AS_SENT  # type: ignore[misc]
    user: _User


class _Channel(TypedDict):
    __pydantic_config__ = _AS_SENT  # type: ignore[misc]
    type: NotRequired[int]
    name: NotRequired[str]


class Interaction(TypedDict):
    __pydantic_config__ = _AS_SENT  # type: ignore[misc]
    id: InteractionId
    type: Annotated[int, Field(ge=PING, le=MODAL_SUBMIT)]  # an int, not a bool (a Literal takes true for 1)
    application_id: Snowflake
    token: str
    data: NotRequired[_Data]
    channel_id: NotRequired[Snowflake]
    guild_id: NotRequired[Snowflake | None]
    channel: NotRequired[_Channel]
    member: NotRequired[_Member]
    user: NotRequired[_User]
    locale: NotRequired[str]
    app_permissions: NotRequired[str]


_READER = TypeAdapter(Interaction)


def read(body: bytes) -> dict[str, Any] | None:
    """The interaction in a signed body; None for a body that is not one (see the module's doc)."""
    try:
        return cast(dict[str, Any], _READER.validate_json(body))
    except ValidationError:
        return None

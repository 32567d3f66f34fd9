"""The fake Discord's modals (issue #23): an interaction answered with a form (callback type 9),
checked as Discord checks it, and the user filling it in and submitting it (an interaction of
type 5, MODAL_SUBMIT, with the values typed)."""

from __future__ import annotations

import asyncio
from typing import Any

MODAL = 9  # the interaction callback that opens a form
MODAL_SUBMIT = 5  # the interaction a form's submit sends
TITLE_MAX, LABEL_MAX, CUSTOM_ID_MAX, FIELDS_MAX, VALUE_MAX = 45, 45, 100, 5, 4000
TEXT_INPUT = 4


def modal_problems(data: dict[str, Any]) -> list[str]:
    """What Discord refuses in a modal: a long title, too many fields, bad labels, ids or lengths."""
    problems = []
    if not 1 <= len(data.get("title") or "") <= TITLE_MAX:
        problems.append(f"modal title: must be 1 to {TITLE_MAX} characters")
    if not 1 <= len(data.get("custom_id") or "") <= CUSTOM_ID_MAX:
        problems.append(f"modal custom_id: must be 1 to {CUSTOM_ID_MAX} characters")
    fields = text_inputs(data)
    if not 1 <= len(fields) <= FIELDS_MAX:
        problems.append(f"modal: {len(fields)} fields, must be 1 to {FIELDS_MAX}")
    for field in fields:
        label, most = field.get("label") or "", field.get("max_length", VALUE_MAX)
        if not 1 <= len(label) <= LABEL_MAX:
            problems.append(f"modal field {field.get('custom_id')!r}: label of {len(label)} characters")
        if field.get("style") not in (1, 2) or not 1 <= most <= VALUE_MAX:
            problems.append(f"modal field {field.get('custom_id')!r}: style or max_length refused")
        if len(field.get("value") or "") > most:
            problems.append(f"modal field {field.get('custom_id')!r}: prefilled value longer than its max_length")
    return problems


def text_inputs(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The form's text fields, in order (each in an action row, or in a label component)."""
    fields = []
    for row in data.get("components") or []:
        inner = row.get("components") or ([row["component"]] if "component" in row else [])
        fields += [c for c in inner if c.get("type") == TEXT_INPUT]
    return fields


def submit_payload(opened: dict[str, Any], values: dict[str, str]) -> dict[str, Any]:
    """The data of a MODAL_SUBMIT for the form `opened` (what the bot showed), fields by label:
    those not given keep their prefilled value; a required one left empty is refused, as the
    client refuses to send it."""
    rows = []
    for field in text_inputs(opened):
        value = values.pop(field["label"], field.get("value") or "")
        if field.get("required", True) and not value:
            raise AssertionError(f"the client does not send the form: {field['label']!r} is required")
        if len(value) > field.get("max_length", VALUE_MAX):
            raise AssertionError(f"the client does not take more than {field.get('max_length')} characters")
        rows.append({"type": 1, "components": [{"type": TEXT_INPUT, "custom_id": field["custom_id"], "value": value}]})
    if values:
        raise AssertionError(f"the form has no field(s) {sorted(values)}")
    return {"custom_id": opened["custom_id"], "components": rows}


class ModalUsers:
    """Mixed into FakeDiscord: what it supplies is named here for the type checker."""

    def interaction_payload(
        self, user: Any, channel_id: int, kind: int, data: dict[str, Any], message: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        raise NotImplementedError

    def _push(self, payload: dict[str, Any]) -> Any:
        raise NotImplementedError

    async def submit_modal(
        self, user: Any, channel_id: int, opened: dict[str, Any], values: dict[str, str]
    ) -> dict[str, Any]:
        """The user fills in the form the bot opened (fields by label) and submits it; returns what
        the bot showed in answer."""
        assert opened.get("type") == MODAL, f"the bot opened no form: {opened}"
        payload = self.interaction_payload(user, channel_id, MODAL_SUBMIT, submit_payload(opened, dict(values)))
        interaction = self._push(payload)
        return await asyncio.wait_for(asyncio.shield(interaction.shown), 10)

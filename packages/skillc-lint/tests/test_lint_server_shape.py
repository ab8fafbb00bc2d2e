"""What makes a message one the language server reads (``server/shape.py``), without a
server: the rules the byte-by-byte tests of ``test_lint_server.py`` meet through pygls."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from skillc_lint.server.shape import NotJson, loads, misshapen, valid_id


@pytest.mark.parametrize(
    ("message", "shape"),
    [
        ({"method": "initialized"}, ([], 'jsonrpc: missing (must be "2.0")')),
        ({"id": 4, "result": None}, ([], 'jsonrpc: missing (must be "2.0")')),
        ({"id": 4, "method": "x"}, ([4], 'jsonrpc: missing (must be "2.0")')),
        ({"id": True, "method": "x"}, ([None], 'jsonrpc: missing (must be "2.0")')),
        ({}, ([None], 'jsonrpc: missing (must be "2.0")')),
        ([{"method": "x"}], ([None], "a batch (LSP sends one message at a time)")),
        (SimpleNamespace(jsonrpc="1.0", id=3, method="x"), ([3], 'jsonrpc: must be "2.0"')),
        (SimpleNamespace(jsonrpc="1.0", method="x"), ([], 'jsonrpc: must be "2.0"')),
        (SimpleNamespace(jsonrpc="2.0", id=3, method="x"), None),
    ],
)
def test_a_notification_or_a_response_misshapen_is_not_answered(
    message: object, shape: tuple[list[object], str] | None
) -> None:
    """Only a request is answered (a notification or a response never is, JSON-RPC), with
    its id when valid; a message that is neither (``{}``) with id null."""
    assert misshapen(message) == shape


def test_an_id_is_an_integer_of_at_most_4300_digits_or_a_string() -> None:
    assert [valid_id(v) for v in ("7", 7, -(10**4300 - 1))] == [True, True, True]
    assert [valid_id(v) for v in (None, True, 1.0, 10**4300, [1], {"a": 1})] == [False] * 6


def test_a_body_is_read_as_bounded_json() -> None:
    """A huge integer reads as a HugeInt (the object around it, its id, kept; a huge id is
    no valid id); NaN and 1e400 are no JSON; the hook's own ValueError is raised as it is."""
    read = loads(b'{"id": 3, "params": {"a": ' + b"9" * 5000 + b"}}", dict)
    assert read["id"] == 3 and type(read["params"]["a"]) is not int
    assert not valid_id(loads(b'{"id": ' + b"9" * 5000 + b"}", dict)["id"])
    for body, said in ((b"NaN", "NaN is not JSON"), (b'{"a": 1e400}', "1e400 is too large")):
        with pytest.raises(NotJson, match=said):
            loads(body, dict)

    def hook(message: dict[str, object]) -> object:
        raise ValueError("the hook's")

    with pytest.raises(ValueError, match="the hook's") as raised:
        loads(b'{"a": 1}', hook)
    assert type(raised.value) is ValueError

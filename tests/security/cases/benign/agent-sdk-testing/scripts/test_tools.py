"""Example test: the agent loop passes tool results back to the model."""
from unittest.mock import MagicMock

from myapp.agent import run_turn

RECORDED = [
    {"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {"city": "Oslo"}},
    ]},
    {"role": "assistant", "content": [
        {"type": "text", "text": "It is 4 °C in Oslo."},
    ]},
]


def test_tool_result_is_sent_back():
    client = MagicMock()
    client.messages.create.side_effect = [MagicMock(**m) for m in RECORDED]
    tools = {"get_weather": lambda city: {"temp_c": 4}}

    run_turn(client, tools, "What's the weather in Oslo?")

    second_call = client.messages.create.call_args_list[1]
    sent = second_call.kwargs["messages"][-1]["content"][0]
    assert sent["type"] == "tool_result"
    assert sent["tool_use_id"] == "toolu_01"

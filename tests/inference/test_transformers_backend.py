"""The in-process backend on the tiny model: batched chat completions whose token ids and
logprobs are exactly what the model assigns, greedy runs that repeat, seeded samples."""

from __future__ import annotations

import pytest

from designrl.inference.transformers_backend import TransformersBackend

torch = pytest.importorskip("torch")

CONVERSATIONS = [[{"role": "user", "content": "Place the title."}],
                 [{"role": "system", "content": "Be brief."},
                  {"role": "user", "content": "A much longer request about a poster layout."}]]


@pytest.fixture(scope="module")
def backend(tiny_model):
    return TransformersBackend(tiny_model)


def test_logprobs_are_the_models_own(backend):
    rows = backend.complete(CONVERSATIONS, n=2, temperature=1.0, max_tokens=12, seed=3)
    assert [len(r) for r in rows] == [2, 2]
    for conversation, row in zip(CONVERSATIONS, rows, strict=True):
        prompt = backend.prompt_ids(conversation)
        for completion in row:
            assert completion.prompt_tokens == len(prompt)
            assert len(completion.logprobs) == len(completion.token_ids) > 0
            ids = torch.tensor([prompt + completion.token_ids])
            with torch.no_grad():
                logits = backend.model(ids).logits[0, len(prompt) - 1:-1]
            expected = torch.log_softmax(logits, -1).gather(
                1, torch.tensor(completion.token_ids)[:, None]).squeeze(1)
            assert torch.allclose(torch.tensor(completion.logprobs), expected, atol=1e-4)


def test_greedy_repeats_and_seeds_decide_samples(backend):
    greedy = [backend.complete(CONVERSATIONS[:1], max_tokens=10)[0][0].token_ids
              for _ in range(2)]
    assert greedy[0] == greedy[1]
    one = backend.complete(CONVERSATIONS[:1], temperature=1.0, max_tokens=10, seed=5)[0][0]
    two = backend.complete(CONVERSATIONS[:1], temperature=1.0, max_tokens=10, seed=5)[0][0]
    other = backend.complete(CONVERSATIONS[:1], temperature=1.0, max_tokens=10, seed=6)[0][0]
    assert one.token_ids == two.token_ids and one.token_ids != other.token_ids
    assert one.finish_reason in ("stop", "length")
    if one.finish_reason == "length":
        assert len(one.token_ids) == 10

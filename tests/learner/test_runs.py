"""Reading a learner's run folder (``designrl.learner.runs``) and the samples the learner
keeps per update."""

from __future__ import annotations

from learner_run_support import write_adapter_store, write_learner_run

from designrl.learner.runs import adapter_versions, list_runs, read_run, sample_rows
from designrl.rollout.groups import Sample, ScoredGroup


def test_a_run_folder_reads_back_curves_samples_checkpoints_and_evaluations(tmp_path):
    write_learner_run(tmp_path / "grpo", updates=3, partial_tail=True, summary=True)
    (tmp_path / "not-a-run").mkdir()
    assert [(r["name"], r["updates"], r["last_version"]) for r in list_runs(tmp_path)] \
        == [("grpo", 3, 3)]
    run = read_run(tmp_path, "grpo")
    assert [r["version"] for r in run["curves"]] == [1, 2, 3]  # the partial line left out
    assert {"loss", "learning_rate", "grad_norm", "clip_ratio/region_mean"} <= run["curves"][0].keys()
    assert run["checkpoints"] == [2, 3]
    assert [s["version"] for s in run["samples"]] == [1, 1, 2, 2, 3, 3]
    assert run["summary"]["after"]["mean_final_score"] == 0.7
    for name in ("not-a-run", "..", "nope"):
        assert read_run(tmp_path, name) is None
    assert list_runs(tmp_path / "missing") == []


def test_adapter_versions_are_complete_folders_in_order(tmp_path):
    write_adapter_store(tmp_path)
    assert [v["name"] for v in adapter_versions(tmp_path)] == ["policy-v1", "policy-v2",
                                                                "policy-v3"]


def test_samples_kept_per_update_are_each_groups_best_and_worst_with_their_text():
    def group(gid, rewards):
        return ScoredGroup(group_id=gid, job_id="j", task_id="gen-poster", item_key="7",
                           policy="vllm:latest", policy_version=2, samples=[
                               Sample(episode_id=f"{gid}-{i}", outcome="ok", reward=r,
                                      policy_version=2,
                                      turns=[{"completion": f"turn {i}a"},
                                             {"completion": f"turn {i}b"}])
                               for i, r in enumerate(rewards)])

    rows = sample_rows(5, [group("a", [0.2, 0.9, 0.1]), group("b", [0.5]), group("c", [1, 0])])
    assert [(r["episode_id"], r["reward"]) for r in rows] == [
        ("a-1", 0.9), ("a-2", 0.1), ("b-0", 0.5), ("c-0", 1)]
    assert rows[0]["text"] == "turn 1a\nturn 1b"
    assert rows[0]["version"] == 5 and rows[0]["sampled_by"] == 2

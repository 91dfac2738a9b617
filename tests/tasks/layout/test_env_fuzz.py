"""Property-based: arbitrary JSON thrown at step never raises, and every
rejection carries a readable error."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from designrl.tasks.layout.actions import ACTION_TYPES
from designrl.tasks.layout.env import LayoutEnv

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=12,
)
field_names = st.sampled_from([
    "action_type", "element_id", "element_ids", "dx", "dy", "dw", "dh", "anchor", "axis", "mode",
    "grid", "strength", "group_id", "pattern", "region_id", "template_id", "rotation",
])
action_like = st.fixed_dictionaries(
    {"action_type": st.sampled_from(ACTION_TYPES) | st.text(max_size=8)},
    optional={"element_id": st.sampled_from(["title", "cta", "ghost"]) | st.text(max_size=6)},
).flatmap(lambda base: st.dictionaries(field_names, json_values, max_size=4).map(lambda d: {**d, **base}))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(payload=json_values | action_like, profile=st.sampled_from(["default", "designgym"]))
def test_step_never_raises(payload, profile):
    env = LayoutEnv(profile=profile)
    env.reset(task_id="poster_basic_v1", seed=1)
    obs = env.step(payload)
    if obs.last_action_error is not None:
        assert isinstance(obs.last_action_error, str) and len(obs.last_action_error) >= 5
        assert obs.message
        assert obs.invalid_actions == 1
        if profile == "default":
            assert obs.reward == -0.05
    for e in obs.elements:
        assert all(0.0 <= v <= 1.0 for v in e.bbox)

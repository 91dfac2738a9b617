"""Language-model policies: prompts per family, honest parsing of completions, and the layout
policy that drives an episode through any backend (``designrl.inference``)."""

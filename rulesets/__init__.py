"""Rule sets shipped with Nightfall; each is found through the `nightfall.rulesets` entry points."""

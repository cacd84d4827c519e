#!/usr/bin/python3
"""What a researcher writes with `import poslab` (docs/PYTHON.md): Llama 3.1's RoPE frequencies
before and after its llama3 scaling, its decay far out, and what bfloat16 does to its angles.
Run by the tests (tests/python/test_poslab.py); needs the build tree's package on PYTHONPATH:
    PYTHONPATH=build/dev/python /usr/bin/python3 docs/python-example.py
"""
import pathlib

import numpy as np

import poslab

here = pathlib.Path(__file__).resolve().parent
config = here.parent / "tests/data/config/real/llama-3.1-8b.json"

# Llama 3.1 8B: head_dim 128, theta 500000, llama3 scaling (factor 8 from 8192 original positions).
scaled = poslab.frequencies(config=str(config))
plain = poslab.frequencies(head_dim=128, base=500000)
ratio = plain["inv_freq"] / scaled["inv_freq"]
print("Llama 3.1 8B: %d frequency pairs" % ratio.size)
print("  unscaled pairs: %d, scaled by 8: %d, in between: %d" %
      (np.sum(np.isclose(ratio, 1)), np.sum(np.isclose(ratio, 8)),
       ratio.size - np.sum(np.isclose(ratio, 1)) - np.sum(np.isclose(ratio, 8))))

# The same scaling from the options instead of the config.
by_options = poslab.frequencies(head_dim=128, base=500000, scaling="llama3", factor=8, original_max_positions=8192,
                                low_freq_factor=1, high_freq_factor=4)
print("  options give the config's frequencies:", np.array_equal(by_options["inv_freq"], scaled["inv_freq"]))

# The decay of the score (all-ones query and key) with distance, out to 131072.
decay = poslab.decay(config=str(config), max_distance=131072)
d, v = decay["distance"], decay["value"]
for far in (1024, 8192, 131072):
    i = int(np.searchsorted(d, far))
    print("  score at distance %d: %.4g (at 0: %.4g)" % (d[i], v[i], v[0]))

# What bfloat16 does to the rotation angles at long positions.
summary = poslab.precision(config=str(config), positions=range(0, 4096), precision="bfloat16", summary=True)
print("  bfloat16 summary:", {k: v for k, v in summary.items() if not isinstance(v, (dict, list, np.ndarray))})

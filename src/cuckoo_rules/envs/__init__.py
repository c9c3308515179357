"""Research adapters: CuBirds as a PettingZoo, Gymnasium or OpenSpiel environment.

Each adapter lives in its own module and needs its own optional dependencies, so this
package imports none of them (``import cuckoo_rules`` never imports NumPy either):

- :mod:`cuckoo_rules.envs.pettingzoo`: a PettingZoo AEC environment in which every seat
  is an agent (``"player_0"`` ...), with action masks in the observations.
  ``pip install 'cuckoo-rules[pettingzoo]'``.
- :mod:`cuckoo_rules.envs.gymnasium`: a single-agent Gymnasium environment, one learner
  against bots, registered as ``"cuckoo_rules/CuBirds-v0"`` when the module is imported.
  ``pip install 'cuckoo-rules[gymnasium]'``.
- :mod:`cuckoo_rules.envs.openspiel`: the game for OpenSpiel's algorithms.
  ``pip install 'cuckoo-rules[openspiel]'``.
- :mod:`cuckoo_rules.envs.vector`: a Gymnasium vector environment on the batch
  simulator, many learner games at once against bots inside the compiled kernels (what
  ``gymnasium.make_vec("cuckoo_rules/CuBirds-v0", ...)`` builds).
  ``pip install 'cuckoo-rules[batch,gymnasium]'``.

``pip install 'cuckoo-rules[envs]'`` installs the first three. They share the observation
vector of :func:`cuckoo_rules.encode_observation` (its layout is documented in
:mod:`cuckoo_rules.observation`) and the 74 action ids of :func:`cuckoo_rules.action_id`,
with :func:`cuckoo_rules.legal_action_mask` as the action mask.
"""

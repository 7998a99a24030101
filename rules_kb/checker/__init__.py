"""The executable checker: game-state scenarios, the continuous effects of
418 applied in layers, and the state-based effects of rule 420, performed as
the rules say and cited from the corpus.

- :mod:`rules_kb.checker.state`: players, objects, zones, types, colours;
- :mod:`rules_kb.checker.scenario`: TOML scenario files → state;
- :mod:`rules_kb.checker.editions`: what differs between editions;
- :mod:`rules_kb.checker.effects`: continuous effects, their operations and layers;
- :mod:`rules_kb.checker.layers`: the layers applied in order, with timestamps
  and computed dependencies (418.5), and the work shown;
- :mod:`rules_kb.checker.characteristics`: what each object is now;
- :mod:`rules_kb.checker.state_based`: one function per state-based effect,
  the simultaneous performing and the repeated check (420.3);
- :mod:`rules_kb.checker.report`: a scenario run against the corpus, with
  the rules' texts; the bundled examples;
- :mod:`rules_kb.checker.budget`: the CPU time a check may take;
- :mod:`rules_kb.checker.board`: a board described by form fields (the
  verifier's taps) ⇄ a scenario, with a catalogue of common effects;
- :mod:`rules_kb.checker.scenario_writer`: a scenario → TOML.
"""

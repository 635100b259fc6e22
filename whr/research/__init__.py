"""Research tools, apart from the daily job's stages: nothing in the pipeline imports them.

- :mod:`whr.research.evaluate`: which rating system predicts results it has not seen
  (``python -m whr.research.evaluate``; ``python -m flows.evaluate`` runs it under Prefect);
- :mod:`whr.research.synthetic`: seeded synthetic histories (players with drifting true
  strengths, tournaments, games) for tests, benchmarks and the evaluation;
- :mod:`whr.research.synthetic_db`: such a history dressed as a RenjuNet-format database
  (``python -m whr.research.synthetic_db``; the bundled ``data/sample`` was made with it).
"""

#!/usr/bin/env python3
"""The answer-quality gate of `make test`: fails when the eval's complete evidence
falls below a floor or its mean tokens per question exceed a ceiling.

Usage: eval-gate.py SCORE_JSON --min-complete PCT --max-tokens N

SCORE_JSON is the score.json that ../shared/eval/run.py writes. Both collections are
checked (`small` and `all`) as well as the whole set. The eval's output is
deterministic (BM25, no model), so a change in these figures is a change in the
mechanism, never noise.
"""
import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("score")
    ap.add_argument("--min-complete", type=float, required=True, help="percent of questions with complete evidence")
    ap.add_argument("--max-tokens", type=float, required=True, help="mean tokens sent per question")
    a = ap.parse_args()
    with open(a.score, encoding="utf-8") as f:
        summary = json.load(f)["summary"]
    rows = [("overall", summary["overall"])] + sorted(summary["by_collection"].items())
    bad = []
    for name, s in rows:
        complete = 100.0 * s["completeness"]
        tokens = s["mean_tokens"]
        print("eval-gate: %-8s complete evidence %5.1f%% (floor %.1f%%), mean tokens %6.0f (ceiling %.0f)"
              % (name, complete, a.min_complete, tokens, a.max_tokens))
        if name == "overall" and complete < a.min_complete:
            bad.append("%s: complete evidence %.1f%% is below %.1f%%" % (name, complete, a.min_complete))
        if tokens > a.max_tokens:
            bad.append("%s: mean tokens %.0f exceed %.0f" % (name, tokens, a.max_tokens))
    if bad:
        for b in bad:
            print("eval-gate: FAIL " + b, file=sys.stderr)
        sys.exit(1)
    print("eval-gate: ok")


if __name__ == "__main__":
    main()

"""One-off extraction of Kajongg's scoring test hands into ``hands.json`` (facts only).

Usage: ``python tests/kajongg/extract.py PATH/TO/kajongg/src/scoringtest.py > tests/kajongg/hands.json``

Kajongg (KDE, GPL-2.0) checks its scorer with hand strings and the score it expects under its
"Classical Chinese DMJL" and "Classical Chinese BMJA" rulesets.  This script reads that file as
data (Python's ``ast``; nothing of it is run or copied) and writes, for every ``scoreTest`` call:
the test class, the hand string, the seat and prevailing wind, and for each ruleset whether the
hand wins and its points, doublings and limits.  ``callingTest`` calls (which tiles a waiting
hand waits for) are not scoring tests and are skipped.
"""

from __future__ import annotations

import ast
import json
import sys

KINDS = {"Win": True, "NoWin": False, "Nothing": False}


def _expect(node: ast.expr) -> dict:
    assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name), ast.dump(node)
    vals = {"points": 0, "doubles": 0, "limits": 0.0}
    names = ["points", "doubles", "limits"]
    for i, a in enumerate(node.args):
        vals[names[i]] = ast.literal_eval(a)
    for kw in node.keywords:
        vals[kw.arg] = ast.literal_eval(kw.value)
    # Nothing() "expects nothing": the hand does not win and scores 0
    return {"won": KINDS[node.func.id], **vals, "kind": node.func.id}


def main(path: str) -> None:
    tree = ast.parse(open(path, encoding="utf-8").read())
    out = []
    for cls in tree.body:
        if not isinstance(cls, ast.ClassDef):
            continue
        for call in ast.walk(cls):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                    and call.func.attr == "scoreTest"):
                continue
            string = ast.literal_eval(call.args[0])
            exp = call.args[1]
            exps = [_expect(e) for e in exp.elts] if isinstance(exp, ast.List) else [_expect(exp)]
            dmjl = exps[0]
            bmja = exps[1] if len(exps) > 1 else exps[0]
            kw = {k.arg: k.value for k in call.keywords}
            wind = lambda n: (n.id[0] if isinstance(n, ast.Name) else "E")  # East/South/West/North
            rec = {"group": cls.name, "kajongg": string,
                   "seat_wind": wind(kw["myWind"]) if "myWind" in kw else "E",
                   "prevailing_wind": wind(kw["roundWind"]) if "roundWind" in kw else "E",
                   "dmjl": dmjl, "bmja": bmja}
            if "totals" in kw:
                rec["totals"] = list(ast.literal_eval(kw["totals"]))
            out.append(rec)
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])

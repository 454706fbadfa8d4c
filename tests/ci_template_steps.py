# SPDX-License-Identifier: MIT
# tests/ci_template_steps.py - writes the shell part of a CI template as one
# bash script, for tests/ci_templates_run.sh to run it as the CI would:
#   gitlab FILE JOB: the template's `variables` exported, then the job's
#                    `script` items (default.before_script, which installs
#                    Debian packages, is left out);
#   github FILE JOB: the workflow's and the job's `env` exported, then every
#                    step's `run` except the step with id `deps` (the
#                    packages) and the `uses` steps (actions, not shell).
# A value given as NAME=VALUE after the JOB replaces the template's.
import shlex
import sys

import yaml


def main():
    kind, path, job = sys.argv[1:4]
    overrides = dict(a.split("=", 1) for a in sys.argv[4:])
    with open(path, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    env = {}
    parts = []
    if kind == "gitlab":
        env.update(doc.get("variables") or {})
        env.update(doc[job].get("variables") or {})
        parts = list(doc[job]["script"])
    elif kind == "github":
        env.update(doc.get("env") or {})
        env.update(doc["jobs"][job].get("env") or {})
        for step in doc["jobs"][job]["steps"]:
            if "run" in step and step.get("id") != "deps":
                parts.append("(\n" + step["run"] + ")")
    else:
        sys.exit("usage: ci_template_steps.py gitlab|github FILE JOB [NAME=VALUE...]")
    env.update(overrides)
    out = ["set -eo pipefail"]
    out += ["export {}={}".format(k, shlex.quote(str(v))) for k, v in env.items()]
    out += parts
    print("\n".join(out))


main()

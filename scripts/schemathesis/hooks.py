"""Schemathesis hooks for scripts/schemathesis/run.sh: every request carries a fresh
`x-wallet-auth` header of one throwaway wallet (PRIVATE_KEY), signed by scripts/sign-auth.ts.
A header is valid for 300 s, so it is renewed every 120 s."""
import os
import subprocess

import schemathesis

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@schemathesis.auth(refresh_interval=120)
class WalletAuth:
    def get(self, case, ctx):
        return subprocess.check_output(
            ["npx", "--no-install", "tsx", "scripts/sign-auth.ts"],
            cwd=ROOT,
            env=os.environ,
            text=True,
            stderr=subprocess.DEVNULL,
        ).strip()

    def set(self, case, data, ctx):
        case.headers = case.headers or {}
        case.headers["x-wallet-auth"] = data


# GET /v1/changes holds a request up to `wait` seconds (25 at most) while no event follows its
# cursor: a fuzzed `wait` would hold most of its cases that long, minutes of CI for nothing the
# check can see. Whatever number is drawn is sent as at most one second (a value that is no
# number goes as drawn: its 422 is what is checked).
MAX_WAIT = 1.0


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    if case.operation.path != "/v1/changes" or not isinstance(case.query, dict):
        return
    wait = case.query.get("wait")
    try:
        if wait is not None and float(wait) > MAX_WAIT:
            case.query["wait"] = str(MAX_WAIT)
    except (TypeError, ValueError):
        pass

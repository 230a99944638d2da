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

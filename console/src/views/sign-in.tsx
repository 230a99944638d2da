import { useState } from "preact/hooks";
import type { Api } from "../api";
import { Form, Submit } from "../components/forms";
import { Screen } from "../components/screen";
import type { ConsoleConfig } from "../config";
import {
  injectedProvider,
  type Session,
  signInWithBrowserWallet,
  signInWithKey,
  signInWithTestWallet,
} from "../session";
import { ErrorNotice, useTask } from "../ui";

export function SignInView(props: {
  api: Api;
  config: ConsoleConfig | null;
  onSignIn: (session: Session) => void;
  /** Why the last session ended (e.g. an expired token), if it did. */
  reason: unknown;
}) {
  const { api, config, onSignIn } = props;
  const task = useTask();
  const [key, setKey] = useState("");
  const provider = injectedProvider();

  const run = (name: string, signIn: () => Promise<Session>) =>
    task.run(async () => onSignIn(await signIn()), name);

  return (
    <Screen id="sign-in" title="Sign in with a wallet" class="sign-in">
      <p>
        The console is a client of this service's public API. Your wallet signs a short message (no
        transaction, no cost), and the service answers with a session token that this tab keeps
        until you sign out or close it.
      </p>
      {props.reason ? <ErrorNotice error={props.reason} context="You were signed out" /> : null}
      <ErrorNotice error={task.error} context="Sign-in failed" />

      <div class="cards">
        <section class="card" aria-labelledby="wallet-title">
          <h2 id="wallet-title">Browser wallet</h2>
          <p>An injected EIP-1193 wallet (a browser extension) signs the message.</p>
          <button
            type="button"
            disabled={!provider || task.busy}
            onClick={() => provider && run("wallet", () => signInWithBrowserWallet(api, provider))}
          >
            {task.running === "wallet" ? "Waiting for the wallet…" : "Sign in with browser wallet"}
          </button>
          {!provider && <p class="muted">No browser wallet was found in this browser.</p>}
        </section>

        <section class="card" aria-labelledby="key-title">
          <h2 id="key-title">Private key of a throwaway wallet</h2>
          <Form
            onSubmit={() => void run("key", () => signInWithKey(api, key)).then(() => setKey(""))}
          >
            <p class="warning" id="key-warning">
              <strong>Only for a test wallet that holds nothing.</strong> Never paste the key of a
              wallet with funds into a web page. The key stays in this tab's memory, signs one
              message here and is forgotten; it is never stored or sent.
            </p>
            <label for="private-key">Private key (64 hex characters)</label>
            <input
              id="private-key"
              type="password"
              autoComplete="off"
              spellcheck={false}
              aria-describedby="key-warning"
              value={key}
              onInput={(e) => setKey(e.currentTarget.value)}
            />
            <Submit
              busy={task.running === "key"}
              busyText="Signing in…"
              disabled={task.busy || key.trim() === ""}
            >
              Sign in with this key
            </Submit>
          </Form>
        </section>

        {config?.test_wallet && (
          <section class="card dev" aria-labelledby="test-title">
            <h2 id="test-title">Test wallet (development only)</h2>
            <p>
              A new random wallet made in this tab, for trying the console on{" "}
              <code>npm run dev</code>. Its memories are unreachable once you sign out, and
              production builds do not offer it.
            </p>
            <button
              type="button"
              disabled={task.busy}
              onClick={() => run("test", () => signInWithTestWallet(api))}
            >
              {task.running === "test" ? "Signing in…" : "Use a new test wallet"}
            </button>
          </section>
        )}
      </div>
    </Screen>
  );
}

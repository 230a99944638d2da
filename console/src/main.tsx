/**
 * The web console: a wallet's memories seen through the public API. Signed out it shows the
 * sign-in screen; signed in, the screens below, one per hash route (router.ts).
 */
// The stylesheets, in cascade order (later files may override earlier ones).
import "./styles/base.css";
import "./styles/forms.css";
import "./styles/cards-tables.css";
import "./styles/memory.css";
import "./styles/views.css";
import "./styles/overrides.css";
import { type ComponentChildren, render } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { Api, type ApiError } from "./api";
import { type ConsoleConfig, loadConfig } from "./config";
import { href, type Route, useRoute } from "./router";
import { clearSession, loadSession, type Session, saveSession } from "./session";
import { GraphView } from "./views/graph";
import { InsightsView } from "./views/insights";
import { initialFilters, type ListFilters, MemoriesView } from "./views/memories";
import { MemoryView } from "./views/memory";
import { QueryView } from "./views/query";
import { SignInView } from "./views/sign-in";
import { TransferView } from "./views/transfer";

const NAV: Array<{ route: Route; label: string }> = [
  { route: { view: "memories" }, label: "Memories" },
  { route: { view: "query" }, label: "Recall & search" },
  { route: { view: "graph", id: null }, label: "Graph" },
  { route: { view: "insights" }, label: "Insights" },
  { route: { view: "transfer" }, label: "Import & export" },
];

const TITLES: Record<Route["view"], string> = {
  memories: "Memories",
  memory: "Memory",
  query: "Recall & search",
  graph: "Relation graph",
  insights: "Insights",
  transfer: "Import & export",
};

const METHOD_LABEL: Record<Session["method"], string> = {
  "browser-wallet": "browser wallet",
  "private-key": "pasted key",
  "test-wallet": "test wallet",
};

function App() {
  const [session, setSession] = useState<Session | null>(() => loadSession());
  const [config, setConfig] = useState<ConsoleConfig | null>(null);
  const [signedOutReason, setSignedOutReason] = useState<ApiError | null>(null);
  const [filters, setFilters] = useState<ListFilters>(initialFilters);
  const route = useRoute();
  const sessionRef = useRef(session);
  sessionRef.current = session;

  const api = useMemo(
    () =>
      new Api({
        token: () => sessionRef.current?.token ?? null,
        onUnauthorized: (error) => {
          clearSession();
          setSession(null);
          // Requests in flight fail alike: the first one's reason is the one to show.
          setSignedOutReason((earlier) => earlier ?? error);
        },
      }),
    [],
  );

  useEffect(() => {
    void loadConfig().then(setConfig);
  }, []);

  // Each screen's heading takes the focus and names the page, so keyboard and screen-reader
  // users land on it and hear where they are.
  useEffect(() => {
    document.title = `${session ? TITLES[route.view] : "Sign in"} · Memory console`;
    document.querySelector<HTMLElement>("main h1")?.focus();
  }, [route, session]);

  const signIn = (next: Session) => {
    saveSession(next);
    setSignedOutReason(null);
    setSession(next);
  };
  const signOut = () => {
    clearSession();
    setSession(null);
    setFilters(initialFilters);
  };

  if (!session) {
    return (
      <>
        <Header />
        <main id="main">
          <SignInView api={api} config={config} onSignIn={signIn} reason={signedOutReason} />
        </main>
      </>
    );
  }

  return (
    <>
      <Header>
        <div class="who">
          <span>
            Signed in as <code data-testid="wallet">{session.wallet}</code> (
            {METHOD_LABEL[session.method]})
          </span>
          <button type="button" class="secondary" onClick={signOut}>
            Sign out
          </button>
        </div>
      </Header>
      <nav aria-label="Console sections">
        <ul>
          {NAV.map((item) => (
            <li key={item.label}>
              <a
                href={href(item.route)}
                aria-current={sameView(route, item.route) ? "page" : undefined}
              >
                {item.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main">
        <Screen route={route} api={api} filters={filters} setFilters={setFilters} />
      </main>
    </>
  );
}

function sameView(a: Route, b: Route): boolean {
  if (a.view === "memory") return b.view === "memories";
  return a.view === b.view;
}

function Screen(props: {
  route: Route;
  api: Api;
  filters: ListFilters;
  setFilters: (f: ListFilters) => void;
}) {
  const { route, api } = props;
  switch (route.view) {
    case "memories":
      return <MemoriesView api={api} filters={props.filters} setFilters={props.setFilters} />;
    case "memory":
      return <MemoryView key={route.id} api={api} id={route.id} />;
    case "query":
      return <QueryView api={api} />;
    case "graph":
      return <GraphView key={route.id ?? ""} api={api} id={route.id} />;
    case "insights":
      return <InsightsView api={api} />;
    case "transfer":
      return <TransferView api={api} />;
  }
}

function skipToContent() {
  document.querySelector<HTMLElement>("main h1")?.focus();
}

function Header({ children }: { children?: ComponentChildren }) {
  return (
    <header class="top">
      {/* A button, not a #main link: the hash holds the route. */}
      <button type="button" class="skip" onClick={skipToContent}>
        Skip to content
      </button>
      <p class="brand">Memory console</p>
      {children}
    </header>
  );
}

const root = document.getElementById("app");
if (root) render(<App />, root);

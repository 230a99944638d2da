/**
 * The web console: a wallet's memories seen through the public API. Signed out it shows the
 * sign-in screen; signed in, the screens below, one per hash route (router.ts), on the
 * wallet's own memories or on a namespace another wallet shared with it (shared.ts).
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
import { href, navigate, type Route, useRoute } from "./router";
import { clearSession, loadSession, type Session, saveSession } from "./session";
import { loadShared, type SharedNamespace, saveShared } from "./shared";
import { Wallet } from "./ui";
import { ActivityView } from "./views/activity";
import { GraphView } from "./views/graph";
import { InsightsView } from "./views/insights";
import { initialFilters, type ListFilters, MemoriesView } from "./views/memories";
import { MemoryView } from "./views/memory";
import { QueryView } from "./views/query";
import { SharingView } from "./views/sharing";
import { SignInView } from "./views/sign-in";
import { TransferView } from "./views/transfer";

const NAV: Array<{ route: Route; label: string }> = [
  { route: { view: "memories" }, label: "Memories" },
  { route: { view: "query" }, label: "Recall & search" },
  { route: { view: "graph", id: null }, label: "Graph" },
  { route: { view: "insights" }, label: "Insights" },
  { route: { view: "transfer" }, label: "Import & export" },
  { route: { view: "sharing" }, label: "Sharing" },
  { route: { view: "activity" }, label: "Activity" },
];

const TITLES: Record<Route["view"], string> = {
  memories: "Memories",
  memory: "Memory",
  query: "Recall & search",
  graph: "Relation graph",
  insights: "Insights",
  transfer: "Import & export",
  sharing: "Sharing",
  activity: "Activity",
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
  const [shared, setShared] = useState<SharedNamespace | null>(() => loadShared());
  const route = useRoute();
  const sessionRef = useRef(session);
  sessionRef.current = session;
  const sharedRef = useRef(shared);
  sharedRef.current = shared;

  const api = useMemo(
    () =>
      new Api({
        token: () => sessionRef.current?.token ?? null,
        owner: () => sharedRef.current?.owner ?? null,
        onUnauthorized: (error) => {
          clearSession();
          setSession(null);
          setShared(null);
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
    setShared(null);
    setFilters(initialFilters);
  };
  /** Shows a shared namespace (or, with null, the wallet's own memories again) from its list. */
  const show = (next: SharedNamespace | null) => {
    saveShared(next);
    setShared(next);
    setFilters(initialFilters);
    navigate({ view: "memories" });
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
      {shared && <SharedBanner shared={shared} onLeave={() => show(null)} />}
      <main id="main">
        {/* A new owner or namespace starts every screen afresh: nothing of the last one stays. */}
        <Screen
          key={shared ? `${shared.owner}/${shared.namespace}` : "own"}
          route={route}
          api={api}
          wallet={session.wallet}
          shared={shared}
          onShow={show}
          filters={filters}
          setFilters={setFilters}
        />
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
  /** The signed-in wallet. */
  wallet: string;
  shared: SharedNamespace | null;
  onShow: (shared: SharedNamespace | null) => void;
  filters: ListFilters;
  setFilters: (f: ListFilters) => void;
}) {
  const { route, api, shared } = props;
  switch (route.view) {
    case "memories":
      return (
        <MemoriesView
          api={api}
          shared={shared}
          filters={props.filters}
          setFilters={props.setFilters}
        />
      );
    case "memory":
      return <MemoryView key={route.id} api={api} shared={shared} id={route.id} />;
    case "query":
      return <QueryView api={api} shared={shared} />;
    case "graph":
      return <GraphView key={route.id ?? ""} api={api} shared={shared} id={route.id} />;
    case "insights":
      return <InsightsView api={api} shared={shared} />;
    case "transfer":
      return <TransferView api={api} shared={shared} />;
    case "sharing":
      return <SharingView api={api} shared={shared} onShow={props.onShow} />;
    case "activity":
      return <ActivityView api={api} shared={shared} wallet={props.wallet} />;
  }
}

/** On every screen while a shared namespace is shown: whose it is, and the way back. */
function SharedBanner(props: { shared: SharedNamespace; onLeave: () => void }) {
  const { owner, namespace, permission } = props.shared;
  return (
    <section class="shared-banner" aria-label="Shared namespace" data-testid="shared-banner">
      <p>
        Showing namespace <strong>{namespace}</strong>, shared with you by{" "}
        <Wallet address={owner} /> ({permission === "write" ? "read and write" : "read only"}).
        Screens and actions only its owner may use are hidden.
      </p>
      <button type="button" class="secondary" onClick={props.onLeave}>
        Back to my memories
      </button>
    </section>
  );
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

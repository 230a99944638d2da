import type { ComponentChildren } from "preact";
import type { Api, NamespaceList } from "../api";
import { DateCell, DetailList, LoadedTable, WhenLoaded } from "../components/lists";
import { Screen } from "../components/screen";
import { href } from "../router";
import type { SharedNamespace } from "../shared";
import { DateTime, excerpt, num, useLoad } from "../ui";
import { Jobs } from "./insights-jobs";

interface FreeTierStatus {
  wallet: string;
  free_tier_remaining: number;
  free_tier_total: number;
  free_tier_used: number;
}

interface Stats {
  total_memories: number;
  pinned_count: number;
  never_accessed: number;
  total_accesses: number;
  avg_importance: number;
  oldest_memory: string | null;
  newest_memory: string | null;
  by_type: Array<{ memory_type: string; count: number }>;
  by_namespace: Array<{ namespace: string; count: number }>;
  total_relations: number;
}

interface Suggested {
  suggested: Array<{
    id: string;
    content: string;
    importance: number;
    memory_type: string;
    access_count: number;
    review_score: number;
    category: string;
  }>;
  categories: Record<string, number>;
  total: number;
}

const CATEGORIES: Array<{ name: string; meaning: string }> = [
  { name: "stale", meaning: "important, but not accessed for 30 days" },
  { name: "decaying", meaning: "fading: type decay between 0.25 and 0.5" },
  { name: "hot", meaning: "recalled 5 times or more" },
  { name: "fresh", meaning: "stored in the last 7 days, never recalled" },
];

/**
 * The wallet's insights. In a shared namespace: the suggestions of that namespace and the
 * wallet's own free tier (which its calls there use); statistics, namespaces and jobs are the
 * owner's alone and not shown.
 */
export function InsightsView({ api, shared }: { api: Api; shared: SharedNamespace | null }) {
  const tier = useLoad(
    (signal) => api.get<FreeTierStatus>("/v1/free-tier/status", {}, { signal }),
    "",
  );
  const namespace = shared?.namespace;
  const suggested = useLoad(
    (signal) =>
      Promise.all(
        CATEGORIES.map((c) =>
          api.get<Suggested>(
            "/v1/suggested",
            { category: c.name, limit: 5, namespace },
            { signal },
          ),
        ),
      ),
    "",
  );

  return (
    <Screen id="insights" title="Insights">
      <div class="cards">
        <section class="card" aria-labelledby="tier-title">
          <h2 id="tier-title">Free tier</h2>
          <WhenLoaded state={tier}>{(t) => <FreeTier tier={t} />}</WhenLoaded>
        </section>
        {!shared && <StatsCard api={api} />}
      </div>

      {shared ? (
        <p class="muted" data-testid="owner-only">
          Statistics, namespaces and background jobs are the owner's own: go back to your memories
          to see yours.
        </p>
      ) : (
        <NamespacesSection api={api} />
      )}

      <section aria-labelledby="suggested-title">
        <h2 id="suggested-title">Suggested for review</h2>
        <WhenLoaded state={suggested}>
          {(answers) => (
            <div class="cards">
              {CATEGORIES.map((c, i) => (
                <SuggestedCard key={c.name} category={c} answer={answers[i]} />
              ))}
            </div>
          )}
        </WhenLoaded>
      </section>

      {!shared && <Jobs api={api} />}
    </Screen>
  );
}

function StatsCard({ api }: { api: Api }) {
  const stats = useLoad((signal) => api.get<Stats>("/v1/stats", {}, { signal }), "");
  return (
    <section class="card" aria-labelledby="stats-title">
      <h2 id="stats-title">Statistics</h2>
      <WhenLoaded state={stats}>{(s) => <StatsTable stats={s} />}</WhenLoaded>
    </section>
  );
}

function NamespacesSection({ api }: { api: Api }) {
  const namespaces = useLoad(
    (signal) => api.get<NamespaceList>("/v1/namespaces", {}, { signal }).then((n) => n.namespaces),
    "",
  );
  return (
    <section aria-labelledby="ns-title">
      <h2 id="ns-title">Namespaces</h2>
      <LoadedTable
        state={namespaces}
        none="No memories yet."
        caption="Namespaces"
        columns={["Namespace", "Memories", "Last stored"]}
        row={(ns) => (
          <tr key={ns.name}>
            <td>{ns.name}</td>
            <td class="num">{ns.count}</td>
            <DateCell iso={ns.last_memory_at} />
          </tr>
        )}
      />
    </section>
  );
}

function FreeTier({ tier }: { tier: FreeTierStatus }) {
  return (
    <>
      <p data-testid="free-tier">
        {tier.free_tier_remaining} of {tier.free_tier_total} free paid calls left (
        {tier.free_tier_used} used).
      </p>
      <meter
        min={0}
        max={tier.free_tier_total}
        value={tier.free_tier_remaining}
        aria-label="Free calls left"
      />
      <p class="muted small-text">
        Store, recall, edits, batch store, context, import of markdown and the language model
        endpoints use it; reading, search, export and import do not.
      </p>
    </>
  );
}

function SuggestedCard(props: { category: (typeof CATEGORIES)[number]; answer?: Suggested }) {
  const { category: c, answer } = props;
  return (
    <section class="card" aria-labelledby={`cat-${c.name}`}>
      <h3 id={`cat-${c.name}`}>
        {c.name} <span class="count">{answer?.categories[c.name] ?? 0}</span>
      </h3>
      <p class="muted small-text">{c.meaning}</p>
      <ul class="plain">
        {answer?.suggested.map((m) => (
          <li key={m.id}>
            <a href={href({ view: "memory", id: m.id })}>{excerpt(m.content, 70)}</a>{" "}
            <span class="muted small-text">score {num(m.review_score, 2)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function StatsTable({ stats }: { stats: Stats }) {
  const rows: Array<[string, ComponentChildren]> = [
    ["Memories", String(stats.total_memories)],
    ["Pinned", String(stats.pinned_count)],
    ["Never recalled", String(stats.never_accessed)],
    ["Accesses", String(stats.total_accesses)],
    ["Average importance", num(stats.avg_importance, 2)],
    ["Relations", String(stats.total_relations)],
    ["Oldest", <DateTime key="o" iso={stats.oldest_memory} />],
    ["Newest", <DateTime key="n" iso={stats.newest_memory} />],
  ];
  return (
    <>
      <DetailList class="details compact" testId="stats" rows={rows} />
      {stats.by_type.length > 0 && (
        <p class="small-text">
          By type: {stats.by_type.map((t) => `${t.memory_type} ${t.count}`).join(", ")}
        </p>
      )}
    </>
  );
}

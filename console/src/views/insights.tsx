import type { Api } from "../api";
import { href } from "../router";
import { DateTime, ErrorNotice, excerpt, num, useLoad } from "../ui";
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

interface Namespaces {
  namespaces: Array<{ name: string; count: number; last_memory_at: string }>;
  total: number;
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

export function InsightsView({ api }: { api: Api }) {
  const tier = useLoad(
    (signal) => api.get<FreeTierStatus>("/v1/free-tier/status", {}, { signal }),
    "",
  );
  const stats = useLoad((signal) => api.get<Stats>("/v1/stats", {}, { signal }), "");
  const namespaces = useLoad((signal) => api.get<Namespaces>("/v1/namespaces", {}, { signal }), "");
  const suggested = useLoad(
    (signal) =>
      Promise.all(
        CATEGORIES.map((c) =>
          api.get<Suggested>("/v1/suggested", { category: c.name, limit: 5 }, { signal }),
        ),
      ),
    "",
  );

  return (
    <section aria-labelledby="insights-title">
      <h1 id="insights-title" tabIndex={-1}>
        Insights
      </h1>
      <div class="cards">
        <section class="card" aria-labelledby="tier-title">
          <h2 id="tier-title">Free tier</h2>
          <ErrorNotice error={tier.error} />
          {tier.data && (
            <>
              <p data-testid="free-tier">
                {tier.data.free_tier_remaining} of {tier.data.free_tier_total} free paid calls left
                ({tier.data.free_tier_used} used).
              </p>
              <meter
                min={0}
                max={tier.data.free_tier_total}
                value={tier.data.free_tier_remaining}
                aria-label="Free calls left"
              />
              <p class="muted small-text">
                Store, recall, edits, batch store, context, import of markdown and the language
                model endpoints use it; reading, search, export and import do not.
              </p>
            </>
          )}
        </section>
        <section class="card" aria-labelledby="stats-title">
          <h2 id="stats-title">Statistics</h2>
          <ErrorNotice error={stats.error} />
          {stats.data && <StatsTable stats={stats.data} />}
        </section>
      </div>

      <section aria-labelledby="ns-title">
        <h2 id="ns-title">Namespaces</h2>
        <ErrorNotice error={namespaces.error} />
        {namespaces.data &&
          (namespaces.data.namespaces.length === 0 ? (
            <p class="muted">No memories yet.</p>
          ) : (
            <table>
              <caption class="visually-hidden">Namespaces</caption>
              <thead>
                <tr>
                  <th scope="col">Namespace</th>
                  <th scope="col">Memories</th>
                  <th scope="col">Last stored</th>
                </tr>
              </thead>
              <tbody>
                {namespaces.data.namespaces.map((n) => (
                  <tr key={n.name}>
                    <td>{n.name}</td>
                    <td class="num">{n.count}</td>
                    <td>
                      <DateTime iso={n.last_memory_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ))}
      </section>

      <section aria-labelledby="suggested-title">
        <h2 id="suggested-title">Suggested for review</h2>
        <ErrorNotice error={suggested.error} />
        {suggested.data && (
          <div class="cards">
            {CATEGORIES.map((c, i) => {
              const answer = suggested.data?.[i];
              const count = answer?.categories[c.name] ?? 0;
              return (
                <section class="card" key={c.name} aria-labelledby={`cat-${c.name}`}>
                  <h3 id={`cat-${c.name}`}>
                    {c.name} <span class="count">{count}</span>
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
            })}
          </div>
        )}
      </section>

      <Jobs api={api} />
    </section>
  );
}

function StatsTable({ stats }: { stats: Stats }) {
  const rows: Array<[string, string]> = [
    ["Memories", String(stats.total_memories)],
    ["Pinned", String(stats.pinned_count)],
    ["Never recalled", String(stats.never_accessed)],
    ["Accesses", String(stats.total_accesses)],
    ["Average importance", num(stats.avg_importance, 2)],
    ["Relations", String(stats.total_relations)],
  ];
  return (
    <>
      <dl class="details compact" data-testid="stats">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
        <div>
          <dt>Oldest</dt>
          <dd>
            <DateTime iso={stats.oldest_memory} />
          </dd>
        </div>
        <div>
          <dt>Newest</dt>
          <dd>
            <DateTime iso={stats.newest_memory} />
          </dd>
        </div>
      </dl>
      {stats.by_type.length > 0 && (
        <p class="small-text">
          By type: {stats.by_type.map((t) => `${t.memory_type} ${t.count}`).join(", ")}
        </p>
      )}
    </>
  );
}

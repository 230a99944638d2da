import { useEffect, useState } from "preact/hooks";
import type { Api, Job } from "../api";
import { href } from "../router";
import { DateTime, ErrorNotice, excerpt, num, useLoad } from "../ui";

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

const JOBS_KEY = "memory-console.jobs";

function rememberedJobs(): string[] {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(JOBS_KEY) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

/**
 * Background jobs: the API has no list of them, so the console follows the ones started from
 * this tab (kept in sessionStorage) and any id pasted in, polling until each finishes.
 */
function Jobs({ api }: { api: Api }) {
  const [ids, setIds] = useState<string[]>(rememberedJobs);
  const [lookup, setLookup] = useState("");
  const [threshold, setThreshold] = useState("0.85");
  const [error, setError] = useState<unknown>(null);

  const track = (id: string) => {
    const next = [id, ...ids.filter((x) => x !== id)].slice(0, 10);
    sessionStorage.setItem(JOBS_KEY, JSON.stringify(next));
    setIds(next);
  };

  const startConsolidation = async () => {
    setError(null);
    try {
      const job = await api.post<Job>("/v1/memories/consolidate", {
        async: true,
        dry_run: true,
        min_similarity: Number(threshold),
      });
      track(job.id);
    } catch (err) {
      setError(err);
    }
  };

  return (
    <section aria-labelledby="jobs-title">
      <h2 id="jobs-title">Background jobs</h2>
      <p class="muted small-text">
        Ingest, extract and consolidation run as jobs when asked with <code>async: true</code>.
        Follow one by id, or start a consolidation dry run (it only reports clusters of
        near-duplicates; a paid call).
      </p>
      <div class="cards">
        <form
          class="card row"
          aria-label="Follow a job"
          onSubmit={(event) => {
            event.preventDefault();
            if (lookup.trim()) track(lookup.trim());
            setLookup("");
          }}
        >
          <div class="field grow">
            <label for="job-id">Job id</label>
            <input
              id="job-id"
              spellcheck={false}
              value={lookup}
              onInput={(e) => setLookup(e.currentTarget.value)}
            />
          </div>
          <div class="actions">
            <button type="submit" class="secondary">
              Follow job
            </button>
          </div>
        </form>
        <form
          class="card row"
          aria-label="Start a consolidation dry run"
          onSubmit={(event) => {
            event.preventDefault();
            void startConsolidation();
          }}
        >
          <div class="field">
            <label for="job-threshold">Similarity (0.5–1)</label>
            <input
              id="job-threshold"
              type="number"
              min={0.5}
              max={1}
              step={0.01}
              value={threshold}
              onInput={(e) => setThreshold(e.currentTarget.value)}
            />
          </div>
          <div class="actions">
            <button type="submit">Start consolidation dry run</button>
          </div>
        </form>
      </div>
      <ErrorNotice error={error} context="Could not start the job" />
      {ids.length > 0 && (
        <ul class="plain jobs" data-testid="jobs">
          {ids.map((id) => (
            <JobRow key={id} api={api} id={id} />
          ))}
        </ul>
      )}
    </section>
  );
}

function JobRow({ api, id }: { api: Api; id: string }) {
  const [tick, setTick] = useState(0);
  const job = useLoad(
    (signal) => api.get<Job>(`/v1/jobs/${encodeURIComponent(id)}`, {}, { signal }),
    `${id}:${tick}`,
  );
  const status = job.data?.status;
  useEffect(() => {
    if (status !== "queued" && status !== "running") return;
    const timer = setTimeout(() => setTick((t) => t + 1), 1500);
    return () => clearTimeout(timer);
  }, [status, tick]);
  const data = job.data;
  return (
    <li>
      <code>{id}</code>{" "}
      {data ? (
        <>
          <span class={`badge job-${data.status}`}>{data.status}</span> {data.kind}, attempts{" "}
          {data.attempts}, started <DateTime iso={data.started_at} />, finished{" "}
          <DateTime iso={data.finished_at} />
          {data.error && (
            <span class="error-text">
              {" "}
              {data.error.code}: {data.error.message}
            </span>
          )}
          {data.status === "succeeded" && data.result !== null && (
            <details>
              <summary>Result</summary>
              <pre>{JSON.stringify(data.result, null, 2)}</pre>
            </details>
          )}
        </>
      ) : null}
      <ErrorNotice error={job.error} />
    </li>
  );
}

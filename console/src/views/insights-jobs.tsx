/** The insights screen's background jobs: the ones this tab started, polled until done. */
import { useEffect, useState } from "preact/hooks";
import type { Api, Job } from "../api";
import { FractionField, TextField, useField } from "../components/fields";
import { Actions, Form, Submit } from "../components/forms";
import { tabValue } from "../tab-storage";
import { DateTime, ErrorNotice, useLoad, useTask } from "../ui";

/** The ids of the jobs this tab follows, newest first. */
const followed = tabValue("jobs", (json) =>
  Array.isArray(json) ? json.filter((x): x is string => typeof x === "string") : null,
);

/**
 * Background jobs: the API has no list of them, so the console follows the ones started from
 * this tab (kept in sessionStorage) and any id pasted in, polling until each finishes.
 */
export function Jobs({ api }: { api: Api }) {
  const [ids, setIds] = useState<string[]>(() => followed.load() ?? []);
  const lookup = useField("");
  const threshold = useField("0.85");
  const task = useTask();

  const track = (id: string) => {
    const next = [id, ...ids.filter((x) => x !== id)].slice(0, 10);
    followed.save(next);
    setIds(next);
  };

  const startConsolidation = async () => {
    const job = await api.post<Job>("/v1/memories/consolidate", {
      async: true,
      dry_run: true,
      min_similarity: Number(threshold.value),
    });
    track(job.id);
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
        <Form
          class="card row"
          label="Follow a job"
          onSubmit={() => {
            if (lookup.value.trim()) track(lookup.value.trim());
            lookup.onValue("");
          }}
        >
          <TextField id="job-id" label="Job id" width="grow" spellcheck={false} {...lookup} />
          <Actions>
            <Submit class="secondary">Follow job</Submit>
          </Actions>
        </Form>
        <Form
          class="card row"
          label="Start a consolidation dry run"
          onSubmit={() => void task.run(startConsolidation)}
        >
          <FractionField id="job-threshold" label="Similarity (0.5–1)" min={0.5} {...threshold} />
          <Actions>
            <Submit>Start consolidation dry run</Submit>
          </Actions>
        </Form>
      </div>
      <ErrorNotice error={task.error} context="Could not start the job" />
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

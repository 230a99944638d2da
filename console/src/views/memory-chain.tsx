/**
 * Knowledge updates on a memory's page (docs/knowledge-updates.md): the notice that a newer
 * memory replaced it, or which ones it replaces, and the whole chain of replacements, oldest
 * first. The chain is walked with GET /v1/memories/:id, which answers replaced memories too
 * (they are history); through a grant that call carries the owner (shareable.ts), and the API
 * names only the memories the grant lets one read.
 */
import { type Api, type Memory, memoryPath } from "../api";
import { WhenLoaded } from "../components/lists";
import { href } from "../router";
import { DateTime, excerpt, type Loaded, useLoad } from "../ui";

/** The most memories the walk fetches, back and forward together. */
export const CHAIN_LIMIT = 20;

/** A memory of the chain, and how many replacements it lies before (<0) or after (>0) this one. */
interface Link {
  memory: Memory;
  step: number;
}

export interface Chain {
  /** Oldest first: what each replaced comes before it. */
  links: Link[];
  /** True when the limit stopped the walk with memories left to fetch. */
  cut: boolean;
}

/** The chain of `memory` once it is loaded; a memory with no replacements makes no call. */
export function useChain(api: Api, memory: Memory | undefined): Loaded<Chain> {
  const key = memory
    ? [memory.id, memory.updated_at, memory.superseded_by, ...memory.supersedes].join(" ")
    : "";
  return useLoad(
    (signal) =>
      memory ? walkChain(api, memory, signal) : Promise.resolve({ links: [], cut: false }),
    key,
  );
}

/** True when a newer memory replaced `memory` or it replaced older ones. */
export const hasReplacements = (memory: Memory): boolean =>
  memory.superseded_by !== null || memory.supersedes.length > 0;

/**
 * Walks back through `supersedes` (every memory a level replaced, a level at a time) and forward
 * through `superseded_by`, fetching each memory once: a cycle ends the walk where it closes, and
 * at most CHAIN_LIMIT memories are fetched.
 */
async function walkChain(api: Api, start: Memory, signal: AbortSignal): Promise<Chain> {
  const get = (id: string) => api.get<Memory>(memoryPath(id), {}, { signal });
  const seen = new Set([start.id]);
  const links: Link[] = [{ memory: start, step: 0 }];
  let budget = CHAIN_LIMIT;
  let cut = false;

  let level = [start];
  for (let step = -1; level.length > 0; step--) {
    const ids = [...new Set(level.flatMap((m) => m.supersedes))].filter((id) => !seen.has(id));
    if (ids.length > budget) cut = true;
    const taken = ids.slice(0, budget);
    budget -= taken.length;
    for (const id of taken) seen.add(id);
    level = await Promise.all(taken.map(get));
    links.push(...level.map((memory) => ({ memory, step })));
  }

  let next = start.superseded_by;
  for (let step = 1; next && !seen.has(next); step++) {
    if (budget === 0) {
      cut = true;
      break;
    }
    seen.add(next);
    budget--;
    const memory = await get(next);
    links.push({ memory, step });
    next = memory.superseded_by;
  }

  // Replacement order first; memories a level apart (one replaced several) by when they occurred.
  links.sort((a, b) => a.step - b.step || a.memory.occurred_at.localeCompare(b.memory.occurred_at));
  return { links, cut };
}

/** A link to a memory: its content's start when the chain has it, else its id. */
function MemoryLink({ id, chain }: { id: string; chain: Chain | undefined }) {
  const known = chain?.links.find((l) => l.memory.id === id)?.memory;
  return (
    <a href={href({ view: "memory", id })} data-memory-id={id}>
      {known ? excerpt(known.content, 80) : <code>{id}</code>}
    </a>
  );
}

/** "Replaced by …" (the memory is history) and "Replaces …", when either applies. */
export function ReplacementNotice(props: { memory: Memory; chain: Chain | undefined }) {
  const { memory, chain } = props;
  if (!hasReplacements(memory)) return null;
  return (
    <div class="notice replacement" data-testid="replacement">
      {memory.superseded_by && (
        <p data-testid="replaced-by">
          <strong>Replaced by</strong> <MemoryLink id={memory.superseded_by} chain={chain} />. This
          memory is history: lists, recall and search leave it out unless asked for replaced
          memories.
        </p>
      )}
      {memory.supersedes.length > 0 && (
        <p data-testid="replaces">
          <strong>Replaces</strong>{" "}
          {memory.supersedes.map((id, i) => (
            <span key={id}>
              {i > 0 && ", "}
              <MemoryLink id={id} chain={chain} />
            </span>
          ))}
        </p>
      )}
    </div>
  );
}

/** The chain, oldest first, with this memory and the current one marked. */
export function ReplacementChain(props: { id: string; state: Loaded<Chain> }) {
  const { id, state } = props;
  return (
    <section aria-labelledby="chain-title">
      <h2 id="chain-title">Replacements, oldest first</h2>
      <WhenLoaded state={state} context="Could not load the chain of replacements">
        {(chain) => (
          <>
            <ol class="chain" data-testid="chain">
              {chain.links.map(({ memory }) => (
                <li
                  key={memory.id}
                  data-memory-id={memory.id}
                  class={memory.id === id ? "this" : undefined}
                >
                  <DateTime iso={memory.occurred_at} />{" "}
                  {memory.superseded_by === null && <span class="badge current">current</span>}
                  <a
                    href={href({ view: "memory", id: memory.id })}
                    aria-current={memory.id === id ? "page" : undefined}
                  >
                    {excerpt(memory.content, 120)}
                  </a>
                  {memory.id === id && <span class="muted"> (this memory)</span>}
                </li>
              ))}
            </ol>
            {chain.cut && (
              <p class="muted small-text">
                The chain goes on: only the {CHAIN_LIMIT} memories nearest this one are shown.
              </p>
            )}
          </>
        )}
      </WhenLoaded>
    </section>
  );
}

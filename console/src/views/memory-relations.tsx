/** The memory screen's relations: both directions, the memory at the other end, and adding one. */
import { useState } from "preact/hooks";
import { type Api, memoryPath, RELATION_TYPES, type RelationListItem } from "../api";
import { href } from "../router";
import { DateTime, excerpt } from "../ui";

export function Relations(props: {
  api: Api;
  id: string;
  relations: RelationListItem[];
  act: (done: string, change: () => Promise<unknown>) => Promise<void>;
}) {
  const { api, id, relations, act } = props;
  const [target, setTarget] = useState("");
  const [type, setType] = useState<string>("related_to");
  return (
    <section aria-labelledby="relations-title">
      <h2 id="relations-title">Relations</h2>
      {relations.length === 0 ? (
        <p class="muted">No relations.</p>
      ) : (
        <table>
          <caption class="visually-hidden">Relations of this memory</caption>
          <thead>
            <tr>
              <th scope="col">Direction</th>
              <th scope="col">Type</th>
              <th scope="col">Other memory</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {relations.map((r) => {
              const other = r.direction === "outgoing" ? r.target_id : r.source_id;
              return (
                <tr key={r.id}>
                  <td>{r.direction === "outgoing" ? "this →" : "→ this"}</td>
                  <td>{r.relation_type}</td>
                  <td>
                    {r.memory?.deleted ? (
                      <span>
                        {excerpt(r.memory.content, 80)} <span class="badge">deleted</span>
                      </span>
                    ) : (
                      <a href={href({ view: "memory", id: other })}>
                        {r.memory ? excerpt(r.memory.content, 80) : other}
                      </a>
                    )}
                  </td>
                  <td>
                    <DateTime iso={r.created_at} />
                  </td>
                  <td>
                    <button
                      type="button"
                      class="secondary small"
                      onClick={() =>
                        act("Relation removed.", () =>
                          api.delete(memoryPath(id, `/relations/${encodeURIComponent(r.id)}`)),
                        )
                      }
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <form
        class="row"
        aria-label="Add a relation"
        onSubmit={(event) => {
          event.preventDefault();
          void act("Relation added.", () =>
            api.post(memoryPath(id, "/relations"), {
              target_id: target.trim(),
              relation_type: type,
            }),
          ).then(() => setTarget(""));
        }}
      >
        <div class="field">
          <label for="r-type">Relation (this memory → target)</label>
          <select id="r-type" value={type} onChange={(e) => setType(e.currentTarget.value)}>
            {RELATION_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <div class="field grow">
          <label for="r-target">Target memory id</label>
          <input
            id="r-target"
            value={target}
            spellcheck={false}
            onInput={(e) => setTarget(e.currentTarget.value)}
          />
        </div>
        <div class="actions">
          <button type="submit" disabled={target.trim() === ""}>
            Add relation
          </button>
        </div>
      </form>
    </section>
  );
}

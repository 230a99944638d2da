/** The memory screen's relations: both directions, the memory at the other end, and adding one. */
import { type Api, memoryPath, RELATION_TYPES, type RelationListItem } from "../api";
import { SelectField, TextField, useField } from "../components/fields";
import { Actions, Form, Submit } from "../components/forms";
import { DataTable, DateCell, IfAny } from "../components/lists";
import { href } from "../router";
import { excerpt } from "../ui";

export function Relations(props: {
  api: Api;
  id: string;
  relations: RelationListItem[];
  act: (done: string, change: () => Promise<unknown>) => Promise<void>;
}) {
  const { api, id, relations, act } = props;
  const target = useField("");
  const type = useField("related_to");
  return (
    <section aria-labelledby="relations-title">
      <h2 id="relations-title">Relations</h2>
      <IfAny items={relations} none="No relations.">
        <DataTable
          caption="Relations of this memory"
          actions
          columns={["Direction", "Type", "Other memory", "Created"]}
        >
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
                <DateCell iso={r.created_at} />
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
        </DataTable>
      </IfAny>
      <Form
        class="row"
        label="Add a relation"
        onSubmit={() =>
          void act("Relation added.", () =>
            api.post(memoryPath(id, "/relations"), {
              target_id: target.value.trim(),
              relation_type: type.value,
            }),
          ).then(() => target.onValue(""))
        }
      >
        <SelectField
          id="r-type"
          label="Relation (this memory → target)"
          choices={RELATION_TYPES}
          {...type}
        />
        <TextField
          id="r-target"
          label="Target memory id"
          width="grow"
          spellcheck={false}
          {...target}
        />
        <Actions>
          <Submit disabled={target.value.trim() === ""}>Add relation</Submit>
        </Actions>
      </Form>
    </section>
  );
}

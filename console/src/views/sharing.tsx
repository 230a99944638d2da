/**
 * Sharing: the namespaces this wallet shares and with whom (grant, change, revoke), and those
 * other wallets share with it (sharing-received.tsx), which the console can switch to. Grants
 * are always the signed-in wallet's own, whichever memories are shown.
 */
import { useState } from "preact/hooks";
import { type Api, type Grant, type Permission, queryString } from "../api";
import { type Choice, SelectField, TextField, useField } from "../components/fields";
import { Actions, Form, Submit } from "../components/forms";
import { DataTable, IfAny, WhenLoaded } from "../components/lists";
import type { SharedNamespace } from "../shared";
import { DateTime, ErrorNotice, Status, useLoad, useTask, Wallet } from "../ui";
import { ReceivedGrants } from "./sharing-received";

const PERMISSIONS: Choice[] = [
  ["read", "read: list, recall, search, export"],
  ["write", "write: also store, edit and delete"],
];

interface Grants {
  grants: Grant[];
}

interface Namespaces {
  namespaces: Array<{ name: string; count: number }>;
}

interface GrantInput {
  grantee: string;
  namespace: string;
  permission: Permission;
}

export function SharingView(props: {
  api: Api;
  shared: SharedNamespace | null;
  onShow: (shared: SharedNamespace | null) => void;
}) {
  const { api } = props;
  const given = useLoad((signal) => api.get<Grants>("/v1/grants", {}, { signal }), "");
  const namespaces = useLoad((signal) => api.get<Namespaces>("/v1/namespaces", {}, { signal }), "");
  const grantee = useField("");
  const namespace = useField("");
  const permission = useField("read");
  const task = useTask();
  const [status, setStatus] = useState("");

  /** Grants, or changes the permission of an existing grant (the API tells them apart). */
  const grant = (input: GrantInput) =>
    task.run(async () => {
      setStatus("");
      const g = await api.post<Grant>("/v1/grants", input);
      // A new grant was written in one statement: both of its times are that statement's.
      setStatus(
        g.created_at === g.updated_at
          ? `Shared "${g.namespace}" with ${g.grantee} (${g.permission}).`
          : `${g.grantee} now has ${g.permission} on "${g.namespace}".`,
      );
      given.reload();
    });

  const revoke = (g: Grant) =>
    task.run(async () => {
      setStatus("");
      await api.delete(`/v1/grants${queryString({ grantee: g.grantee, namespace: g.namespace })}`);
      setStatus(`Revoked ${g.grantee}'s ${g.permission} on "${g.namespace}".`);
      given.reload();
    });

  return (
    <section aria-labelledby="sharing-title">
      <h1 id="sharing-title" tabIndex={-1}>
        Sharing
      </h1>
      <p class="muted">
        Share one of your namespaces with another wallet: with <code>read</code> it can list,
        recall, search and export the namespace's memories; with <code>write</code> it can also
        store, edit and delete them. Its calls use its own free allowance, never yours.
      </p>
      <Form
        class="row"
        label="Share a namespace"
        onSubmit={() =>
          void grant({
            grantee: grantee.value.trim(),
            namespace: namespace.value.trim(),
            permission: permission.value === "write" ? "write" : "read",
          })
        }
      >
        <TextField
          id="s-grantee"
          label="Wallet to share with (0x…)"
          width="grow"
          required
          spellcheck={false}
          {...grantee}
        />
        <TextField id="s-namespace" label="Namespace" list="s-namespaces" required {...namespace}>
          <datalist id="s-namespaces">
            {namespaces.data?.namespaces.map((n) => (
              <option key={n.name} value={n.name}>{`${n.name} (${n.count})`}</option>
            ))}
          </datalist>
        </TextField>
        <SelectField id="s-permission" label="Permission" choices={PERMISSIONS} {...permission} />
        <Actions>
          <Submit busy={task.busy} busyText="Saving…">
            Share
          </Submit>
        </Actions>
      </Form>
      <ErrorNotice error={task.error} />
      <Status>{status}</Status>

      <section aria-labelledby="given-title">
        <h2 id="given-title">Shared by you</h2>
        <WhenLoaded state={given} context="Could not list your grants">
          {(data) => (
            <IfAny items={data.grants} none="You share no namespace.">
              <GivenGrants grants={data.grants} busy={task.busy} grant={grant} revoke={revoke} />
            </IfAny>
          )}
        </WhenLoaded>
      </section>

      <ReceivedGrants api={api} shared={props.shared} onShow={props.onShow} />
    </section>
  );
}

function GivenGrants(props: {
  grants: Grant[];
  busy: boolean;
  grant: (input: GrantInput) => void;
  revoke: (grant: Grant) => void;
}) {
  return (
    <DataTable
      caption="Namespaces you share"
      testId="given-grants"
      columns={[
        "Namespace",
        "Shared with",
        "Permission",
        "Granted",
        "Changed",
        <span key="actions" class="visually-hidden">
          Actions
        </span>,
      ]}
    >
      {props.grants.map((g) => {
        const other: Permission = g.permission === "read" ? "write" : "read";
        // Each button names its grant for screen readers; the row shows which one it is.
        const which = `${g.namespace}, ${g.grantee}`;
        return (
          <tr key={`${g.namespace}|${g.grantee}`} data-grantee={g.grantee}>
            <td>{g.namespace}</td>
            <td>
              <Wallet address={g.grantee} />
            </td>
            <td>{g.permission}</td>
            <td>
              <DateTime iso={g.created_at} />
            </td>
            <td>
              <DateTime iso={g.updated_at} />
            </td>
            <td class="row-actions">
              <button
                type="button"
                class="secondary small"
                disabled={props.busy}
                onClick={() =>
                  props.grant({ grantee: g.grantee, namespace: g.namespace, permission: other })
                }
              >
                {other === "write" ? "Allow writing" : "Make read only"}
                <span class="visually-hidden">: {which}</span>
              </button>
              <button
                type="button"
                class="danger small"
                disabled={props.busy}
                onClick={() => props.revoke(g)}
              >
                Revoke<span class="visually-hidden">: {which}</span>
              </button>
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}

/**
 * Sharing: the namespaces this wallet shares and with whom (grant, change, revoke), and those
 * other wallets share with it (sharing-received.tsx), which the console can switch to. Grants
 * are always the signed-in wallet's own, whichever memories are shown.
 */
import { useState } from "preact/hooks";
import {
  type Api,
  type Grant,
  type GrantList,
  type NamespaceList,
  type Permission,
  queryString,
} from "../api";
import {
  type Choice,
  NamespaceOptions,
  SelectField,
  TextField,
  useField,
} from "../components/fields";
import { Actions, Form, Submit } from "../components/forms";
import { DateCell, LoadedTable, WalletCell } from "../components/lists";
import { Screen } from "../components/screen";
import type { SharedNamespace } from "../shared";
import { ErrorNotice, Status, useLoad, useTask } from "../ui";
import { ReceivedGrants } from "./sharing-received";

const PERMISSIONS: Choice[] = [
  ["read", "read: list, recall, search, export"],
  ["write", "write: also store, edit and delete"],
];

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
  const given = useLoad(
    (signal) => api.get<GrantList>("/v1/grants", {}, { signal }).then((d) => d.grants),
    "",
  );
  const namespaces = useLoad(
    (signal) => api.get<NamespaceList>("/v1/namespaces", {}, { signal }),
    "",
  );
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
    <Screen id="sharing" title="Sharing">
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
          <NamespaceOptions id="s-namespaces" namespaces={namespaces.data?.namespaces} />
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
        <LoadedTable
          state={given}
          context="Could not list your grants"
          none="You share no namespace."
          caption="Namespaces you share"
          testId="given-grants"
          actions
          columns={["Namespace", "Shared with", "Permission", "Granted", "Changed"]}
          row={(g) => (
            <GivenGrant
              key={`${g.namespace}|${g.grantee}`}
              grant={g}
              busy={task.busy}
              change={grant}
              revoke={revoke}
            />
          )}
        />
      </section>

      <ReceivedGrants api={api} shared={props.shared} onShow={props.onShow} />
    </Screen>
  );
}

/** A row of the grants given: the grant, and its buttons to flip its permission or revoke it. */
function GivenGrant(props: {
  grant: Grant;
  busy: boolean;
  change: (input: GrantInput) => void;
  revoke: (grant: Grant) => void;
}) {
  const g = props.grant;
  const other: Permission = g.permission === "read" ? "write" : "read";
  // Each button names its grant for screen readers; the row shows which one it is.
  const which = `${g.namespace}, ${g.grantee}`;
  return (
    <tr data-grantee={g.grantee}>
      <td>{g.namespace}</td>
      <WalletCell address={g.grantee} />
      <td>{g.permission}</td>
      <DateCell iso={g.created_at} />
      <DateCell iso={g.updated_at} />
      <td class="row-actions">
        <button
          type="button"
          class="secondary small"
          disabled={props.busy}
          onClick={() =>
            props.change({ grantee: g.grantee, namespace: g.namespace, permission: other })
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
}

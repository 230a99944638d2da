/** The sharing screen's namespaces other wallets share with this one, each to switch to. */
import type { Api, GrantList } from "../api";
import { DateCell, LoadedTable, WalletCell } from "../components/lists";
import { isSharedBy, type SharedNamespace, sharedOf } from "../shared";
import { useLoad } from "../ui";

export function ReceivedGrants(props: {
  api: Api;
  shared: SharedNamespace | null;
  onShow: (shared: SharedNamespace | null) => void;
}) {
  const { api, shared, onShow } = props;
  const received = useLoad(
    (signal) => api.get<GrantList>("/v1/grants/received", {}, { signal }).then((d) => d.grants),
    "",
  );
  return (
    <section aria-labelledby="received-title">
      <h2 id="received-title">Shared with you</h2>
      <p class="muted small-text">
        Open one to see its memories on every screen, as its owner's grant allows; the screens and
        actions only the owner may use are hidden until you go back to your own memories.
      </p>
      <LoadedTable
        state={received}
        context="Could not list what is shared with you"
        none="No wallet shares a namespace with you."
        caption="Namespaces shared with you"
        testId="received-grants"
        actions
        columns={["Owner", "Namespace", "Permission", "Since"]}
        row={(g) => (
          <tr key={`${g.owner}|${g.namespace}`} data-owner={g.owner}>
            <WalletCell address={g.owner} />
            <td>{g.namespace}</td>
            <td>{g.permission}</td>
            <DateCell iso={g.created_at} />
            <td>
              {isSharedBy(shared, g) ? (
                <span class="badge">shown now</span>
              ) : (
                <button type="button" class="small" onClick={() => onShow(sharedOf(g))}>
                  Open<span class="visually-hidden">: {`${g.namespace}, ${g.owner}`}</span>
                </button>
              )}
            </td>
          </tr>
        )}
      />
    </section>
  );
}

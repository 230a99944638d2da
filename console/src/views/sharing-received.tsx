/** The sharing screen's namespaces other wallets share with this one, each to switch to. */
import type { Api, Grant } from "../api";
import { DataTable, IfAny, WhenLoaded } from "../components/lists";
import { isSharedBy, type SharedNamespace, sharedOf } from "../shared";
import { DateTime, useLoad, Wallet } from "../ui";

export function ReceivedGrants(props: {
  api: Api;
  shared: SharedNamespace | null;
  onShow: (shared: SharedNamespace | null) => void;
}) {
  const { api, shared, onShow } = props;
  const received = useLoad(
    (signal) => api.get<{ grants: Grant[] }>("/v1/grants/received", {}, { signal }),
    "",
  );
  return (
    <section aria-labelledby="received-title">
      <h2 id="received-title">Shared with you</h2>
      <p class="muted small-text">
        Open one to see its memories on every screen, as its owner's grant allows; the screens and
        actions only the owner may use are hidden until you go back to your own memories.
      </p>
      <WhenLoaded state={received} context="Could not list what is shared with you">
        {(data) => (
          <IfAny items={data.grants} none="No wallet shares a namespace with you.">
            <DataTable
              caption="Namespaces shared with you"
              testId="received-grants"
              columns={[
                "Owner",
                "Namespace",
                "Permission",
                "Since",
                <span key="actions" class="visually-hidden">
                  Actions
                </span>,
              ]}
            >
              {data.grants.map((g) => (
                <tr key={`${g.owner}|${g.namespace}`} data-owner={g.owner}>
                  <td>
                    <Wallet address={g.owner} />
                  </td>
                  <td>{g.namespace}</td>
                  <td>{g.permission}</td>
                  <td>
                    <DateTime iso={g.created_at} />
                  </td>
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
              ))}
            </DataTable>
          </IfAny>
        )}
      </WhenLoaded>
    </section>
  );
}

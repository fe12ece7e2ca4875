import { esc } from "./html";

export interface LayoutPerson {
  name: string;
  email: string;
  role: string;
  organizationName: string;
  operator: boolean;
}

/**
 * The navigation in four groups a forwarder scans rather than fifteen links in a row: the daily work,
 * the deployment's own operations (operators only), what developers set up, and the account.
 */
const NAV: { group: string; operator?: boolean; links: { path: string; label: string }[] }[] = [
  {
    group: "Shipments",
    links: [
      { path: "/dashboard", label: "Overview" },
      { path: "/dashboard/shipments", label: "Shipments" },
      { path: "/dashboard/track", label: "Track" },
      { path: "/dashboard/customers", label: "Customers" },
      { path: "/dashboard/quotes", label: "Quotes" },
      // The organisation's demurrage and detention contracts: what its last free days are counted from.
      { path: "/dashboard/dnd-terms", label: "D&D terms" },
      { path: "/dashboard/documents", label: "Documents" },
      { path: "/dashboard/reports", label: "Reports" },
    ],
  },
  {
    group: "Operations",
    operator: true,
    links: [
      { path: "/dashboard/operations", label: "Operations" },
      { path: "/dashboard/operations/tickets", label: "Support queue" },
      { path: "/dashboard/operations/quotes", label: "Quote requests" },
    ],
  },
  {
    group: "Developers",
    links: [
      { path: "/dashboard/keys", label: "API keys" },
      { path: "/dashboard/webhooks", label: "Webhooks" },
      { path: "/dashboard/partners", label: "Partner sources" },
      { path: "/dashboard/usage", label: "Usage" },
    ],
  },
  {
    group: "Account",
    links: [
      { path: "/dashboard/team", label: "Team" },
      { path: "/dashboard/notifications", label: "Notifications" },
      { path: "/dashboard/tickets", label: "Support" },
      { path: "/dashboard/account", label: "Account" },
    ],
  },
];

/** The page shell: skip link, header with the organisation, navigation, main. No external resource. */
export function layout(input: {
  title: string;
  body: string;
  current?: string;
  person?: LayoutPerson;
  csrf?: string;
}): string {
  // Each group is a list named by its heading-like label, so a screen reader announces "Developers,
  // list, 3 items"; the current page is marked in its group.
  const nav = input.person
    ? `<nav aria-label="Dashboard" class="groups">${NAV.filter((g) => !g.operator || input.person?.operator)
        .map((g) => {
          const id = `nav-${g.group.toLowerCase()}`;
          const here = g.links.some((n) => n.path === input.current);
          return `<div class="nav-group${here ? " nav-here" : ""}"><span class="nav-label" id="${id}">${esc(g.group)}</span><ul aria-labelledby="${id}">${g.links
            .map(
              (n) =>
                `<li><a href="${n.path}"${n.path === input.current ? ' aria-current="page"' : ""}>${esc(n.label)}</a></li>`,
            )
            .join("")}</ul></div>`;
        })
        .join("")}</nav>`
    : "";
  const who = input.person
    ? `<div class="who"><span>${esc(input.person.name)} · ${esc(input.person.organizationName)} (${esc(input.person.role)})</span>
<form method="post" action="/dashboard/sign-out" class="inline"><input type="hidden" name="_csrf" value="${esc(input.csrf ?? "")}"><button type="submit">Sign out</button></form></div>`
    : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<meta name="htmx-config" content='{"includeIndicatorStyles":false,"allowEval":false}'>
<title>${esc(input.title)} · Quayside</title>
<link rel="stylesheet" href="/dashboard/assets/app.css">
<script src="/dashboard/assets/htmx.min.js" defer></script>
<script src="/dashboard/assets/app.js" defer></script>
</head>
<body${input.csrf ? ` hx-headers='{"X-CSRF-Token":"${esc(input.csrf)}"}'` : ""}>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><a class="brand" href="/dashboard">Quayside</a>${who}</header>
${nav}
<main id="main" tabindex="-1">
<h1>${esc(input.title)}</h1>
${input.body}
</main>
</body></html>`;
}

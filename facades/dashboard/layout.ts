import { esc } from "./html";

export interface LayoutPerson {
  name: string;
  email: string;
  role: string;
  organizationName: string;
  operator: boolean;
}

const NAV: { path: string; label: string; operator?: boolean }[] = [
  { path: "/dashboard", label: "Overview" },
  { path: "/dashboard/shipments", label: "Shipments" },
  { path: "/dashboard/track", label: "Track" },
  { path: "/dashboard/customers", label: "Customers" },
  { path: "/dashboard/keys", label: "API keys" },
  { path: "/dashboard/webhooks", label: "Webhooks" },
  { path: "/dashboard/team", label: "Team" },
  { path: "/dashboard/usage", label: "Usage" },
  { path: "/dashboard/documents", label: "Documents" },
  { path: "/dashboard/notifications", label: "Notifications" },
  { path: "/dashboard/tickets", label: "Support" },
  { path: "/dashboard/account", label: "Account" },
  { path: "/dashboard/operations", label: "Operations", operator: true },
  { path: "/dashboard/operations/tickets", label: "Support queue", operator: true },
  { path: "/dashboard/operations/quotes", label: "Quote requests", operator: true },
];

/** The page shell: skip link, header with the organisation, navigation, main. No external resource. */
export function layout(input: {
  title: string;
  body: string;
  current?: string;
  person?: LayoutPerson;
  csrf?: string;
}): string {
  const nav = input.person
    ? `<nav aria-label="Dashboard"><ul>${NAV.filter((n) => !n.operator || input.person?.operator)
        .map(
          (n) =>
            `<li><a href="${n.path}"${n.path === input.current ? ' aria-current="page"' : ""}>${esc(n.label)}</a></li>`,
        )
        .join("")}</ul></nav>`
    : "";
  const who = input.person
    ? `<div class="who"><span>${esc(input.person.name)} · ${esc(input.person.organizationName)} (${esc(input.person.role)})</span>
<form method="post" action="/dashboard/sign-out" class="inline"><input type="hidden" name="_csrf" value="${esc(input.csrf ?? "")}"><button type="submit">Sign out</button></form></div>`
    : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
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

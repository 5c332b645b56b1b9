import type { Messages } from "@/lib/i18n/en";

/** The content admin pages, for the sub-navigation they share. */
export const contentAdminLinks = (t: Messages) => [
  { href: "/admin/blog", text: t.content.admin.blogTitle },
  { href: "/admin/publications", text: t.content.admin.publicationsTitle },
  { href: "/admin/messages", text: t.content.admin.messagesTitle },
];

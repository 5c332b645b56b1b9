import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { ChatPage } from "@/components/chat/chat-page";
import { PageHeader } from "@/components/page-header";
import { getSessionUser } from "@/lib/api/pages";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.assistants.chat.title, description: t.assistants.chat.description };
}

export default async function Chat() {
  if (!(await getSessionUser())) redirect("/sign-in?next=/chat");
  const { t } = await getI18n();
  return (
    <>
      <PageHeader title={t.assistants.chat.title} lead={t.assistants.chat.description} />
      <ChatPage />
    </>
  );
}

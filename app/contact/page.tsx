import type { Metadata } from "next";
import { ContactForm } from "@/components/content/contact-form";
import { PageHeader } from "@/components/page-header";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.content.contact.title, description: t.content.contact.lead };
}

export default async function ContactPage() {
  const { t } = await getI18n();
  return (
    <div className="max-w-3xl">
      <PageHeader title={t.content.contact.title} lead={t.content.contact.lead} />
      <ContactForm />
    </div>
  );
}

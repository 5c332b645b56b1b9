import ReactMarkdown from "react-markdown";
import rehypeSanitize from "rehype-sanitize";
import remarkGfm from "remark-gfm";

/**
 * A blog post's Markdown (GitHub flavour: tables, task lists, strikethrough, autolinks). Raw HTML in the source is
 * dropped (`skipHtml`, and no rehype-raw), and the tree is sanitised with rehype-sanitize's GitHub schema, so
 * `javascript:` links and event attributes cannot reach the page even if an admin account is misused.
 */
export function Markdown({ source }: { source: string }) {
  return (
    <div className="prose-content space-y-4 leading-relaxed text-ink [&_a]:text-brand [&_a]:underline [&_blockquote]:border-l-4 [&_blockquote]:border-line [&_blockquote]:pl-4 [&_code]:rounded [&_code]:bg-sunken [&_code]:px-1 [&_h2]:mt-6 [&_h2]:text-xl [&_h2]:font-semibold [&_h3]:mt-4 [&_h3]:text-lg [&_h3]:font-semibold [&_ol]:list-decimal [&_ol]:pl-6 [&_pre]:overflow-x-auto [&_pre]:rounded [&_pre]:bg-sunken [&_pre]:p-3 [&_table]:w-full [&_table]:text-sm [&_td]:border [&_td]:border-line [&_td]:px-2 [&_th]:border [&_th]:border-line [&_th]:px-2 [&_ul]:list-disc [&_ul]:pl-6">
      <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeSanitize]} skipHtml>
        {source}
      </ReactMarkdown>
    </div>
  );
}

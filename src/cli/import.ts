import '../server/production-by-default.ts';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { restoreUploadsArchive } from '../backups/scheduled-backups.ts';
import { type ImportReport, runImport } from '../import/import.ts';
import { uploadsBeside } from '../import/penstand.ts';
import { ImportError } from '../import/types.ts';
import { loadConfigOrExit } from '../server/boot.ts';
import { runCommand } from './command.ts';

const FORMAT_NAMES = {
  wordpress: 'WordPress',
  ghost: 'Ghost',
  substack: 'Substack',
  medium: 'Medium',
  penstand: 'Penstand',
  members: 'Member list',
} as const;
const USAGE =
  "Usage: npm run import -- <file.xml|file.json|file.zip|file.csv> [--dry-run] [--fetch-images] [--category 'Old name=Penstand category']… [--default-category Technology]";

/** The report as a writer reads it: counts first, then what was skipped and why, then warnings. */
export function formatReport(report: ImportReport): string {
  const reasons = new Map<string, number>();
  for (const s of report.skipped) reasons.set(s.reason, (reasons.get(s.reason) ?? 0) + 1);
  return [
    `${report.dryRun ? 'Dry run (nothing saved): ' : ''}${FORMAT_NAMES[report.format]} export, ${report.total} items`,
    `created: ${report.created}`,
    `updated: ${report.updated}`,
    `unchanged: ${report.unchanged}`,
    `skipped: ${report.skipped.length}`,
    ...[...reasons].map(([reason, n]) => `  ${n} × ${reason}`),
    ...(report.contents.drafts !== undefined ? [`drafts: ${report.contents.drafts}`] : []),
    ...(report.contents.members
      ? [`members' posts: ${report.contents.members} (for signed-in members: visibility members)`]
      : []),
    ...(report.contents.paid
      ? [`paid posts: ${report.contents.paid} (for paying members only: visibility paid)`]
      : []),
    `comments created: ${report.comments.created}, unchanged: ${report.comments.unchanged}`,
    ...(Object.keys(report.categories).length ? ['categories (old → Penstand):'] : []),
    ...Object.entries(report.categories).map(
      ([from, { category, posts }]) => `  ${from} → ${category} (${posts} post${posts === 1 ? '' : 's'})`,
    ),
    ...(report.restored
      ? [
          `products: ${report.restored.products}, subscribers: ${report.restored.subscribers}, members: ${report.restored.members}, orders: ${report.restored.orders}, discount codes: ${report.restored.discounts}`,
        ]
      : []),
    ...(report.subscribers
      ? [
          `subscribers: ${report.subscribers.added} added (confirmed), ${report.subscribers.merged} already here, ${report.subscribers.optedOut} with emails turned off left out, ${report.subscribers.deleted} deleted left out, ${report.subscribers.invalid} not addresses`,
        ]
      : []),
    ...(report.members
      ? [
          `members: ${report.members.created} new accounts, ${report.members.existing} already here, ${report.members.comped} comped, ${report.members.linked} linked to Stripe, ${report.members.notPlaced} paying or comped there left free`,
        ]
      : []),
    `warnings: ${report.warnings.length}`,
    ...report.warnings.map((w) => `  ${w}`),
  ].join('\n');
}

let args: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    allowPositionals: true,
    options: {
      'dry-run': { type: 'boolean' },
      'fetch-images': { type: 'boolean' },
      category: { type: 'string', multiple: true },
      'default-category': { type: 'string' },
    },
  });
}
try {
  args = parse();
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
  process.exit(2);
}
const [file] = args.positionals;
const pairs = (args.values.category ?? []).map((pair) => pair.split('='));
if (!file || args.positionals.length > 1 || pairs.some((pair) => pair.length !== 2)) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const categoryMap = Object.fromEntries(pairs.map(([from, to]) => [from.trim(), to.trim()]));

let shownPercent = -5;
await runCommand(loadConfigOrExit(), async (runtime) => {
  try {
    const report = await runImport(runtime.services, file, {
      dryRun: args.values['dry-run'],
      fetchImages: args.values['fetch-images'],
      categoryMap,
      defaultCategory: args.values['default-category'],
      onProgress: (done, total) => {
        const percent = Math.floor((done / Math.max(total, 1)) * 100);
        if (process.stderr.isTTY) process.stderr.write(`\r${done}/${total} items`);
        // Without a terminal (a log), a line per 5 % instead of a counter rewritten in place.
        else if (percent >= shownPercent + 5 || done === total) {
          shownPercent = percent;
          process.stderr.write(`${done}/${total} items (${percent}%)\n`);
        }
      },
    });
    if (process.stderr.isTTY) process.stderr.write('\n');
    process.stdout.write(`${formatReport(report)}\n`);
    // A Penstand export's uploads, written beside it by `npm run export`, come back with it.
    const uploads = uploadsBeside(file);
    if (report.format === 'penstand' && !report.dryRun && existsSync(uploads)) {
      const { uploads: publicFiles, privateFiles } = runtime.services;
      const restored = await restoreUploadsArchive(uploads, { uploads: publicFiles, privateFiles });
      process.stdout.write(`uploads restored: ${restored} from ${uploads}\n`);
    }
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
  }
});

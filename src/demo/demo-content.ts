/** The demo blog and shop that the embedded `npm start` seeds on first start. */

export type DemoPost = {
  title: string;
  excerpt: string;
  category: string;
  tags: string[];
  image?: string;
  youtubeVideoId?: string;
  podcastUrl?: string;
  /** Featured posts lead the home page and fill its carousel. */
  featured?: boolean;
  status?: 'draft' | 'published';
  daysAgo: number;
  body: string;
};

const paragraph = (topic: string) =>
  `Working on ${topic} taught me that the quiet parts of a craft matter as much as the loud ones. ` +
  'Most days are not breakthroughs; they are small, careful steps that compound. I keep a notebook of what ' +
  'worked and what did not, and I read it back every Friday. Patterns show up that I would never have seen in the moment.';

/** A post body: an introduction, then `extra` (code, figures), then a section per heading. */
const body = (topic: string, sections: string[], extra: string[] = []) =>
  [
    paragraph(topic),
    ...extra,
    ...sections.flatMap((heading, i) => [
      `## ${heading}`,
      i % 2 === 0
        ? `${paragraph(heading.toLowerCase())}\n\n- Start small and ship\n- Measure before you optimise\n- Write down **why**, not only *what*`
        : `${paragraph(heading.toLowerCase())}\n\n> The best tool is the one you understand well enough to put down.`,
    ]),
    'Thanks for reading. If this was useful, leave a comment below — I read every one.',
  ].join('\n\n');

export const demoPosts: DemoPost[] = [
  {
    title: 'Building a Calm Home Office',
    featured: true,
    excerpt: 'How I turned a spare corner into a workspace that helps me focus for hours.',
    category: 'Life',
    tags: ['workspace', 'focus'],
    image: '/demo/photos/dandelion.webp',
    daysAgo: 1,
    body: body('a home office', ['Light and sound', 'The desk', 'Rituals that stick']),
  },
  {
    title: 'Design Systems Without the Ceremony',
    excerpt:
      'A small team can have a consistent UI without a committee. Here is the lightweight process we use.',
    category: 'Design',
    tags: ['design systems', 'ui'],
    image: '/demo/design.svg',
    daysAgo: 2,
    body: body('design systems', ['Tokens first', 'Components second', 'Documentation last']),
  },
  {
    title: 'Video: Refactoring a Legacy Checkout Live',
    featured: true,
    excerpt: 'Forty minutes of untangling a checkout flow, with tests written before every change.',
    category: 'Technology',
    tags: ['refactoring', 'video', 'testing'],
    youtubeVideoId: 'dQw4w9WgXcQ',
    image: '/demo/video-checkout.svg',
    daysAgo: 3,
    body: body('legacy code', ['Characterisation tests', 'Small safe steps', 'What we deleted']),
  },
  {
    title: 'Episode 12: Careers That Zigzag',
    excerpt: 'A conversation about leaving a straight career path and why the detours were the point.',
    category: 'Podcasts',
    tags: ['career', 'interview'],
    podcastUrl: '/demo/episode-1.wav',
    image: '/demo/podcast.svg',
    daysAgo: 4,
    body: body('a winding career', ['Show notes', 'Links mentioned']),
  },
  {
    title: 'A Practical Guide to PostgreSQL Indexes',
    excerpt: 'B-tree, GIN and partial indexes explained with the queries that need them.',
    category: 'Tutorial',
    tags: ['postgresql', 'databases', 'performance'],
    image: '/demo/code-sql.svg',
    daysAgo: 5,
    body: body(
      'database indexes',
      ['Reading a query plan', 'Partial indexes', 'Full-text search with GIN', 'When not to index'],
      [
        "A partial index covers only the rows a hot query reads, so it stays small:\n\n```sql\n-- Only published posts are listed on the home page.\nCREATE INDEX posts_published_idx\n  ON posts (published_at DESC)\n  WHERE status = 'published';\n\nEXPLAIN ANALYZE\nSELECT id, title FROM posts\nWHERE status = 'published'\nORDER BY published_at DESC\nLIMIT 10;\n```",
      ],
    ),
  },
  {
    title: 'What Two Weeks Offline Taught Me',
    featured: true,
    excerpt: 'No phone, no laptop, one notebook. Notes from a deliberate disconnection.',
    category: 'Life',
    tags: ['travel', 'rest'],
    image: '/demo/photos/earth.webp',
    daysAgo: 7,
    body: body(
      'being offline',
      ['The first three days', 'Boredom as a feature', 'Coming back'],
      [
        // An HTML image keeps its width and height: the page keeps its place while it loads.
        '<img src="/demo/photos/earth-at-night.webp" alt="The lights of the cities of the world, seen from orbit at night" width="1200" height="630" title="Everyone else stayed online. The Earth at night (image: NASA).">',
      ],
    ),
  },
  {
    title: 'Typography for Developers',
    featured: true,
    excerpt: 'The handful of type rules that make any interface easier to read.',
    category: 'Design',
    tags: ['typography', 'ui'],
    image: '/demo/type.svg',
    daysAgo: 9,
    body: body('typography', ['Line length', 'Vertical rhythm', 'Choosing a pair']),
  },
  {
    title: 'Video: Accessible Forms in Ten Minutes',
    excerpt: 'Labels, errors and focus order: a quick walkthrough of forms everyone can use.',
    category: 'Tutorial',
    tags: ['accessibility', 'forms', 'video'],
    youtubeVideoId: 'aqz-KE-bpKQ',
    image: '/demo/video-forms.svg',
    daysAgo: 11,
    body: body('accessible forms', ['Labels that stay', 'Errors people notice', 'Keyboard first']),
  },
  {
    title: 'Episode 13: The Economics of Indie Products',
    featured: true,
    excerpt: 'Pricing, refunds and the surprising maths of selling small digital products.',
    category: 'Podcasts',
    tags: ['business', 'interview'],
    podcastUrl: '/demo/episode-2.wav',
    image: '/demo/podcast-indie.svg',
    daysAgo: 13,
    body: body('indie products', ['Show notes', 'Numbers we discussed']),
  },
  {
    title: 'Why I Still Write Tests First',
    excerpt: 'Test-driven development after fifteen years: what stayed, what changed.',
    category: 'Technology',
    tags: ['testing', 'craft'],
    image: '/demo/tests.svg',
    daysAgo: 15,
    body: body('test-driven development', ['The loop', 'Where it fails', 'Tests as documentation']),
  },
  {
    title: 'Colour Palettes That Survive Dark Mode',
    excerpt: 'Picking colours that keep their contrast and meaning in both themes.',
    category: 'Design',
    tags: ['colour', 'dark mode'],
    image: '/demo/palettes.svg',
    daysAgo: 18,
    body: body('colour palettes', ['Contrast budgets', 'Semantic colours', 'Testing both themes']),
  },
  {
    title: 'Streaming Server Rendering, Explained',
    excerpt: 'How a server can send the page shell at once and fill in slow parts later.',
    category: 'Technology',
    tags: ['react', 'performance', 'ssr'],
    image: '/demo/photos/earth-at-night.webp',
    daysAgo: 21,
    body: body('streaming rendering', ['The shell', 'Suspense boundaries', 'Caching the fast path']),
  },
  {
    title: 'Morning Routines Are Overrated',
    excerpt: 'A contrarian take on productivity advice, and what I do instead.',
    category: 'Life',
    tags: ['productivity', 'habits'],
    image: '/demo/morning.svg',
    daysAgo: 25,
    body: body('routines', ['The problem with scripts', 'Energy over time']),
  },
  {
    title: 'Build a Markdown Blog Engine from Scratch',
    excerpt: 'Parsing, sanitizing and rendering Markdown safely, step by step.',
    category: 'Tutorial',
    tags: ['markdown', 'security', 'node'],
    image: '/demo/markdown.svg',
    daysAgo: 30,
    body: body(
      'a markdown engine',
      ['Parsing', 'Sanitizing', 'Rendering once, on save'],
      [
        "The whole engine is a pipeline of small steps, run once when a post is saved:\n\n```ts\nimport { unified } from 'unified';\n\n// Markdown in, safe HTML out: nothing is rendered on each page view.\nconst processor = unified()\n  .use(remarkParse)\n  .use(remarkRehype)\n  .use(rehypeSanitize, schema)\n  .use(rehypeStringify);\n\nexport function render(markdown: string): string {\n  return String(processor.processSync(markdown));\n}\n```",
        '<img src="/demo/photos/dandelion.webp" alt="Dandelion seed heads in a meadow at sunset" width="1200" height="630" title="An image on its own line becomes a figure, captioned by its title. Photo: Clemens Engelhardt (CC0).">',
      ],
    ),
  },
  {
    title: 'Notes From a Year of Remote Mentoring',
    excerpt: 'What worked when mentoring six junior developers across four time zones.',
    category: 'Life',
    tags: ['mentoring', 'remote'],
    image: '/demo/mentoring.svg',
    daysAgo: 36,
    body: body('mentoring', ['Async first', 'Pairing sessions', 'Feedback that lands']),
  },
  {
    title: 'Small Tools I Use Every Day',
    excerpt: 'A tour of the unglamorous command-line tools that save me an hour a week.',
    category: 'Technology',
    tags: ['tools', 'cli'],
    image: '/demo/tools.svg',
    daysAgo: 42,
    body: body('small tools', ['Search', 'Text', 'Automation']),
  },
  {
    title: 'Draft: Thoughts on Pricing Courses',
    excerpt: 'Unfinished notes about pricing online courses.',
    category: 'Technology',
    tags: ['business'],
    status: 'draft',
    daysAgo: 0,
    body: body('course pricing', ['Open questions']),
  },
  {
    title: 'Draft: Reading List for Winter',
    excerpt: 'Books I plan to read this winter.',
    category: 'Life',
    tags: ['books'],
    status: 'draft',
    daysAgo: 0,
    body: body('reading', ['Fiction', 'Non-fiction']),
  },
];

export type DemoProduct = {
  name: string;
  description: string;
  price: number;
  category: 'Digital' | 'Physical' | 'Courses' | 'Books' | 'Merchandise';
  stock: number | null;
  featured?: boolean;
  status?: 'active' | 'inactive';
  image?: string;
  /** Options (Size, Colour) and a variant per combination: each with its own stock and price. */
  options?: { name: string; values: string[] }[];
  variants?: { options: Record<string, string>; stock: number | null; sku: string; price?: number }[];
};

const SHIRT_SIZES = ['S', 'M', 'L', 'XL'];
const SHIRT_COLOURS = ['Black', 'White'];

export const demoProducts: DemoProduct[] = [
  {
    name: 'Testing Web Apps: The Course',
    description: 'Eight hours of video on unit, integration and end-to-end testing, with exercises.',
    price: 14900,
    category: 'Courses',
    stock: null,
    featured: true,
    image: '/demo/course-testing.svg',
  },
  {
    name: 'PostgreSQL for App Developers',
    description: 'A hands-on course on schemas, indexes and query plans for people who ship products.',
    price: 9900,
    category: 'Courses',
    stock: null,
    featured: true,
    image: '/demo/course-postgres.svg',
  },
  {
    name: 'Design Systems Workshop (Live)',
    description: 'A live two-day workshop. Seats are limited.',
    price: 49900,
    category: 'Courses',
    stock: 4,
    image: '/demo/course-workshop.svg',
  },
  {
    name: 'The Calm Developer (Paperback)',
    description: 'Essays on sustainable software careers. 240 pages, signed by the author.',
    price: 2999,
    category: 'Books',
    stock: 25,
    featured: true,
    image: '/demo/book.svg',
  },
  {
    name: 'The Calm Developer (E-book)',
    description: 'The same essays as EPUB and PDF, DRM-free.',
    price: 1499,
    category: 'Books',
    stock: null,
    image: '/demo/ebook.svg',
  },
  {
    name: 'Field Notes on Typography',
    description: 'A short illustrated book about type for interfaces.',
    price: 1999,
    category: 'Books',
    stock: 0,
    image: '/demo/typography-book.svg',
  },
  {
    name: 'Notion Writing Templates',
    description: 'Templates for drafting, editing and scheduling posts.',
    price: 1200,
    category: 'Digital',
    stock: null,
    featured: true,
    image: '/demo/template.svg',
  },
  {
    name: 'UI Icon Pack',
    description: '300 hand-drawn SVG icons in three weights.',
    price: 2400,
    category: 'Digital',
    stock: null,
    image: '/demo/icons.svg',
  },
  {
    name: 'Mechanical Keyboard Wrist Rest',
    description: 'Walnut wrist rest, hand finished.',
    price: 4500,
    category: 'Physical',
    stock: 8,
    featured: true,
    image: '/demo/wrist-rest.svg',
  },
  {
    name: 'Desk Mat (Large)',
    description: 'Felt desk mat, 90 × 40 cm.',
    price: 3200,
    category: 'Physical',
    stock: 0,
    image: '/demo/desk-mat.svg',
  },
  {
    name: 'Penstand Mug',
    description: 'Stoneware mug, 350 ml, dishwasher safe.',
    price: 1800,
    category: 'Merchandise',
    stock: 3,
    featured: true,
    image: '/demo/mug.svg',
  },
  {
    name: 'Penstand T-shirt',
    description: 'Organic cotton, unisex fit, in four sizes and two colours.',
    price: 2500,
    category: 'Merchandise',
    stock: null,
    image: '/demo/tshirt.svg',
    options: [
      { name: 'Size', values: SHIRT_SIZES },
      { name: 'Colour', values: SHIRT_COLOURS },
    ],
    // Sold out in small white; the largest size costs more.
    variants: SHIRT_SIZES.flatMap((size, i) =>
      SHIRT_COLOURS.map((colour) => ({
        options: { Size: size, Colour: colour },
        stock: size === 'S' && colour === 'White' ? 0 : 10 - i * 2,
        sku: `TEE-${size}-${colour.slice(0, 2).toUpperCase()}`,
        ...(size === 'XL' ? { price: 2800 } : {}),
      })),
    ),
  },
  {
    name: 'Sticker Set',
    description: 'Five vinyl stickers.',
    price: 600,
    category: 'Merchandise',
    stock: 120,
    image: '/demo/stickers.svg',
  },
  {
    name: 'Retired Poster',
    description: 'No longer sold.',
    price: 1500,
    category: 'Merchandise',
    stock: 5,
    status: 'inactive',
    image: '/demo/city.svg',
  },
];

export const demoComments = [
  {
    author: 'Priya',
    email: 'priya@example.com',
    content: 'This is exactly the nudge I needed this week. Thank you!',
    approved: true,
  },
  {
    author: 'Tom',
    email: 'tom@example.com',
    content: 'Great write-up. Would love a follow-up on the tooling you mentioned.',
    approved: true,
  },
  {
    author: 'Lena',
    email: 'lena@example.com',
    content: 'I tried this last month and it changed how I plan my days.',
    approved: true,
  },
  {
    author: 'Marco',
    email: 'marco@example.com',
    content: 'Could you share the template you used?',
    approved: false,
  },
  {
    author: 'Ada',
    email: 'ada@example.com',
    content: 'Bookmarked. The section on measurement is gold.',
    approved: false,
  },
];

export const demoSettings = {
  title: 'Penstand',
  description:
    'Stories from professional life and beyond — essays, tutorials, videos and podcast episodes by Alex Morgan.',
  author_name: 'Alex Morgan',
  author_bio:
    'Alex is a software engineer and designer who writes about building calm, durable products and the life around them.',
  author_profile_image: '/demo/author.svg',
  contact_email: 'alex@example.com',
  shipping_note:
    'Physical items ship within two working days from Lisbon, tracked. Courses, e-books and templates arrive by email as soon as the payment clears.',
  returns_note:
    'Changed your mind? Send physical items back unused within 30 days for a full refund. Digital products can be refunded within 14 days if you have not downloaded them.',
  social_links: {
    youtube: 'https://youtube.com/@penstand',
    github: 'https://github.com/penstand',
    twitter: 'https://twitter.com/penstand',
    linkedin: 'https://linkedin.com/in/penstand',
  },
  // On, as for a new install: first-party, cookie-free, nothing personal stored (DESIGN decision 14).
  analytics: true,
};

import { Link } from 'react-router';
import type { AdminPostListItem } from '../../blog/post-editor.ts';
import { POST_MESSAGES } from '../../blog/post-messages.ts';
import { AdminFilters, AdminItems, AdminPages, ItemActions } from './AdminList.tsx';
import { formatDate, formatDateTime } from './format.ts';

export const POST_FILTERS = ['all', 'published', 'draft', 'scheduled'] as const;
type Filters = { q: string; status: (typeof POST_FILTERS)[number] };

function authorName(author: AdminPostListItem['author']): string {
  const full = [author.firstName, author.lastName].filter(Boolean).join(' ');
  return full || author.username || 'Anonymous';
}

function PostCard({ post }: { post: AdminPostListItem }) {
  return (
    <li className="card admin-item">
      <div className="admin-item-head">
        <h3>{post.title}</h3>
        <span className={`badge badge-${post.status}`}>{post.status}</span>
      </div>
      <p>{post.excerpt}</p>
      <p className="muted admin-meta">
        <span>{post.category}</span>
        <span>{post.viewCount} views</span>
        <span>By {authorName(post.author)}</span>
        <span>Created {formatDate(post.createdAt)}</span>
        {post.status === 'scheduled' && post.publishAt ? (
          <span>Publishes {formatDateTime(post.publishAt)}</span>
        ) : null}
      </p>
      <ItemActions
        name={post.title}
        view={`/post/${post.slug}`}
        edit={`/admin/posts/${post.id}`}
        intent="delete-post"
        id={post.id}
        confirm={POST_MESSAGES.confirmDelete}
      />
    </li>
  );
}

export function PostsTab({
  posts,
  filters,
  pagination,
}: {
  posts: AdminPostListItem[];
  filters: Filters;
  pagination: { page: number; pages: number; total: number };
}) {
  return (
    <div className="admin-stack">
      <AdminFilters
        noun="post"
        params={{ tab: 'posts' }}
        searches={[{ name: 'q', label: 'Search posts', value: filters.q }]}
        selects={[{ name: 'status', label: 'Status', options: POST_FILTERS, value: filters.status }]}
        beside={
          <Link className="button" to="/admin/posts/new">
            New Post
          </Link>
        }
      />
      <AdminItems items={posts} empty="No posts found">
        {(post) => <PostCard key={post.id} post={post} />}
      </AdminItems>
      <AdminPages label="Post pages" params={{ tab: 'posts', ...filters }} pagination={pagination} />
    </div>
  );
}

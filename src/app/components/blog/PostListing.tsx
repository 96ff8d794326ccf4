import type { ReactNode } from 'react';
import type { Pagination, PostCardData } from '../../../blog/posts.ts';
import { Pager, PostGrid } from './PostList.tsx';

/** A tag's, category's or author's posts: a small hero, the cards and the pages. */
export function PostListing({
  title,
  tagline,
  intro,
  path,
  posts,
  pagination,
}: {
  title: string;
  tagline: ReactNode;
  intro?: ReactNode;
  path: string;
  posts: PostCardData[];
  pagination: Pagination;
}) {
  return (
    <>
      <section className="hero hero-small">
        <div className="container">
          <h1>{title}</h1>
          <p className="hero-tagline">{tagline}</p>
        </div>
      </section>
      {intro && <div className="container listing-intro">{intro}</div>}
      <section className="container post-browser" aria-labelledby="listing-heading">
        <h2 id="listing-heading" className="visually-hidden">
          Posts
        </h2>
        <PostGrid posts={posts} filtering={false} />
        <Pager pagination={pagination} href={(page) => (page > 1 ? `${path}?page=${page}` : path)} />
      </section>
    </>
  );
}

/** '1 post' or 'n posts'. */
export function postCount(n: number): string {
  return n === 1 ? '1 post' : `${n.toLocaleString('en-US')} posts`;
}

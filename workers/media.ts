import type { Processor } from 'bullmq';
import { jobSchemas } from '../src/jobs/names.ts';
import { makeVariants } from '../src/media/variants.ts';
import type { AppServices } from '../src/server/services.ts';

/** The 'media' queue: WebP variants of uploads. */
export function mediaProcessor(services: AppServices): Processor {
  return async (job) => {
    if (job.name !== 'media.variants') return;
    const { fileName } = jobSchemas['media.variants'].parse(job.data);
    const written = await makeVariants(services.uploads, fileName);
    services.log.info({ fileName, variants: written }, 'image variants written');
  };
}

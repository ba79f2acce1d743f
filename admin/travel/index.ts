// One settings mirror per admin context, shared by the travel, settings and prefs
// routes. Created on first use; its start and close join the server's lifecycle.
import type { AdminContext } from '../context.ts';
import { checkBranchName, checkRemoteUrl } from '../git/remote-url.ts';
import { TravelService } from './service.ts';

const services = new WeakMap<AdminContext, TravelService>();

export function travelFor(ctx: AdminContext): TravelService {
  let service = services.get(ctx);
  if (!service) {
    const created = new TravelService({ config: ctx.config, checks: { remoteUrl: checkRemoteUrl, branch: checkBranchName } });
    services.set(ctx, created);
    ctx.hooks.start.push(() => created.start());
    ctx.hooks.close.push(() => created.close());
    service = created;
  }
  return service;
}

export type { TravelService } from './service.ts';

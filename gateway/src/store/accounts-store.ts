import type { PrismaClient } from '../generated/prisma/client';

export interface OidcProfile {
  /** The provider's issuer and its subject for this person: together they are who signed in. */
  issuer: string;
  subject: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  isAdmin: boolean;
}

/** Local password accounts appear in sessions and admin routes as `local:<local_admins.id>`. */
export const LOCAL_ADMIN_PREFIX = 'local:';

/** Whether an account may still use its sessions, as the database says now. */
export interface AccountState {
  active: boolean;
  email: string | null;
}

/** How long an account's state is trusted before it is read again (per process). */
export const ACCOUNT_STATE_CACHE_MS = 2_000;

/** users and local_admins: the gateway's accounts. */
export class AccountsStore {
  private readonly states = new Map<string, { state: AccountState; until: number }>();

  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Finds the user by issuer and subject, else adopts a row of the same e-mail that no subject
   * owns yet (users created before subjects were recorded). Returns null when the e-mail belongs
   * to another subject: an e-mail alone never hands over an account.
   */
  async signInOidcUser(profile: OidcProfile) {
    const { issuer, subject, ...visible } = profile;
    return this.prisma.$transaction(async (tx) => {
      const bySubject = await tx.user.findUnique({ where: { oidcIssuer_oidcSubject: { oidcIssuer: issuer, oidcSubject: subject } } });
      if (bySubject) return tx.user.update({ where: { id: bySubject.id }, data: visible });
      const byEmail = await tx.user.findUnique({ where: { email: profile.email } });
      if (byEmail && byEmail.oidcSubject !== null) return null;
      if (byEmail) return tx.user.update({ where: { id: byEmail.id }, data: { ...visible, oidcIssuer: issuer, oidcSubject: subject } });
      return tx.user.create({ data: { ...visible, oidcIssuer: issuer, oidcSubject: subject } });
    });
  }

  findUser(id: string) {
    return this.prisma.user.findUnique({ where: { id } });
  }

  /** The account behind a session's userId (`local:` for password accounts), cached for a moment. */
  async accountState(userId: string): Promise<AccountState> {
    const cached = this.states.get(userId);
    if (cached && cached.until > Date.now()) return cached.state;
    let state: AccountState;
    if (userId.startsWith(LOCAL_ADMIN_PREFIX)) {
      const admin = await this.findLocalAdminById(userId.slice(LOCAL_ADMIN_PREFIX.length));
      state = { active: admin !== null && admin.disabledAt === null, email: null };
    } else {
      const user = await this.findUser(userId);
      state = { active: user !== null && user.disabledAt === null, email: user?.email ?? null };
    }
    this.states.set(userId, { state, until: Date.now() + ACCOUNT_STATE_CACHE_MS });
    return state;
  }

  /** Disables a user or a local account (`local:<id>`); false when no such account exists. */
  async disableAccount(userId: string): Promise<boolean> {
    this.states.delete(userId);
    const data = { disabledAt: new Date() };
    const { count } = userId.startsWith(LOCAL_ADMIN_PREFIX)
      ? await this.prisma.localAdmin.updateMany({ where: { id: userId.slice(LOCAL_ADMIN_PREFIX.length), disabledAt: null }, data })
      : await this.prisma.user.updateMany({ where: { id: userId, disabledAt: null }, data });
    if (count > 0) return true;
    // Already disabled still counts as found.
    return userId.startsWith(LOCAL_ADMIN_PREFIX)
      ? (await this.findLocalAdminById(userId.slice(LOCAL_ADMIN_PREFIX.length))) !== null
      : (await this.findUser(userId)) !== null;
  }

  findLocalAdmin(username: string) {
    return this.prisma.localAdmin.findUnique({ where: { username } });
  }

  findLocalAdminById(id: string) {
    return this.prisma.localAdmin.findUnique({ where: { id } });
  }

  /** Creates the account, or resets its password and re-enables it. */
  upsertLocalAdmin(username: string, passwordHash: string) {
    return this.prisma.localAdmin.upsert({
      where: { username },
      create: { username, passwordHash },
      update: { passwordHash, disabledAt: null },
    });
  }
}

import type { PrismaClient } from '../generated/prisma/client';

export interface OidcProfile {
  email: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  isAdmin: boolean;
}

/** users and local_admins: the gateway's accounts. */
export class AccountsStore {
  constructor(private readonly prisma: PrismaClient) {}

  upsertOidcUser(profile: OidcProfile) {
    return this.prisma.user.upsert({ where: { email: profile.email }, create: profile, update: profile });
  }

  findUser(id: string) {
    return this.prisma.user.findUnique({ where: { id } });
  }

  /** Returns false when no such user exists. */
  async disableUser(id: string): Promise<boolean> {
    const { count } = await this.prisma.user.updateMany({ where: { id }, data: { disabledAt: new Date() } });
    return count > 0;
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

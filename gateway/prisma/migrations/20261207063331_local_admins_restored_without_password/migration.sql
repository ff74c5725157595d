-- An admin restored from a backup arrives without a password (the file never holds a hash): null until `make create-admin` sets one, and password sign-in refuses it meanwhile.
-- AlterTable
ALTER TABLE "local_admins" ALTER COLUMN "password_hash" DROP NOT NULL;

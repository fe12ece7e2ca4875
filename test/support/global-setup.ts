// Replaced by the database/Redis setup of the platform spine; kept minimal so unit tests run today.
export default async function setup(): Promise<void> {}

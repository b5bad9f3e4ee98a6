/* eslint-disable */
export default async () => {
  return {};
};

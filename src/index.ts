export default {
  async fetch() {
    return new Response('ok');
  },
} satisfies ExportedHandler<Env>;

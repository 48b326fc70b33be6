; Astro components: the frontmatter and script blocks (re-extracted as TS/JS) and the tags of the markup.
(frontmatter (frontmatter_js_block) @frontmatter)
(script_element) @script
(start_tag (tag_name) @tag)
(self_closing_tag (tag_name) @tag)

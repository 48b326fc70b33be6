; Svelte single-file components: the script blocks (re-extracted as TS/JS) and the tags of the markup.
(script_element) @script
(start_tag (tag_name) @tag)
(self_closing_tag (tag_name) @tag)

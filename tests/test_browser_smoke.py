def test_chromium_opens_a_page(chromium, tmp_path):
    page = tmp_path / "p.html"
    page.write_text("<html><body><h1 id=x>Bonjour</h1></body></html>", encoding="utf-8")
    driver = chromium(390, 844)
    driver.get(page.as_uri())
    assert driver.find_element("id", "x").text == "Bonjour"
    assert driver.execute_script("return window.innerWidth") == 390
